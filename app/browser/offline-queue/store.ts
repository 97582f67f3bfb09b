// The offline queue's IndexedDB store: one object store of kept actions,
// keyed by their idempotency key. A few promise helpers instead of a
// library: the queue needs get, put, delete and read-all, nothing more
// (docs/decisions/1045-offline-actions-queue.md).
export type KeptField = [name: string, value: string | { emptyFile: true }];

export type KeptAction = {
  /** The form's idempotencyKey: what it was first sent with, and the record's key. */
  key: string;
  userId: number;
  /** Where the form posts (path and query, as routing reads them). */
  action: string;
  encType: "application/x-www-form-urlencoded" | "multipart/form-data";
  fields: KeptField[];
  /** The page it came from. */
  page: string;
  /**
   * What the list calls it: a message key of the `kept` area
   * (app/domain/route-traits.ts), said in the reader's language when shown.
   */
  what: string;
  about: string;
  createdAt: number;
  state: "waiting" | "refused";
  message?: string;
  /** Not sent again before this time (a 5xx asked to wait). */
  notBefore?: number;
  /** Sends that failed without a final answer (a 5xx, 408, 429, none at all). */
  tries?: number;
};

const DB = "fairshake-offline";
const STORE = "actions";

let opened: Promise<IDBDatabase> | null = null;

function open() {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () =>
      request.result.createObjectStore(STORE, { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  opened.catch(() => {
    opened = null;
  });
  return opened;
}

async function run<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const db = await open();
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export const allKept = () =>
  run("readonly", (s) => s.getAll() as IDBRequest<KeptAction[]>);
export const getKept = (key: string) =>
  run("readonly", (s) => s.get(key) as IDBRequest<KeptAction | undefined>);
export const putKept = (action: KeptAction) =>
  run("readwrite", (s) => s.put(action));
export const deleteKept = (key: string) =>
  run("readwrite", (s) => s.delete(key));
