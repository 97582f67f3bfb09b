// Keeping a form the network failed to send (docs/decisions/1045-offline-actions-queue.md).
// Loaded with the forms, not lazily like the rest of the queue (./queue.ts):
// it runs when the network is gone, when no code can be fetched.
import { queueOwner, writeCounts } from "./counts";
import { keepableFields, queueableRoute } from "./queueable";
import { allKept, putKept, type KeptField } from "./store";

/**
 * Keeps a form the network failed to send, for its signed-in owner; false
 * when it cannot be kept (no one signed in, a route that does not wait, a
 * password typed, a chosen file, no IndexedDB), and the form then says only
 * 'Not sent'.
 */
export async function keepForLater(
  request: Request,
  key: string,
  form: FormData,
) {
  const userId = queueOwner();
  if (userId === null || typeof indexedDB === "undefined") return false;
  const url = new URL(request.url);
  const route = queueableRoute(url.pathname);
  if (!route) return false;
  const typed: KeptField[] = [];
  for (const [name, value] of form) {
    if (typeof value === "string") typed.push([name, value]);
    else if (value.size === 0 && value.name === "")
      typed.push([name, { emptyFile: true }]);
    else return false; // a photo is not kept on the device
  }
  const fields = keepableFields(typed);
  if (!fields) return false; // a password or other secret: never stored
  const multipart = /^multipart\//i.test(
    request.headers.get("Content-Type") ?? "",
  );
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  try {
    await putKept({
      key,
      userId,
      action: url.pathname + url.search,
      encType: multipart
        ? "multipart/form-data"
        : "application/x-www-form-urlencoded",
      fields,
      page: location.pathname,
      what: route.what(text("intent")),
      about: text("title") || document.title.replace(/\s*·\s*Fairshake$/, ""),
      createdAt: Date.now(),
      state: "waiting",
    });
  } catch {
    return false;
  }
  await publishCounts(userId);
  askForBackgroundSync();
  return true;
}

// Where the browser has Background Sync, the service worker (public/sw.js)
// tells an open page when the connection is back.
function askForBackgroundSync() {
  void navigator.serviceWorker?.ready
    .then((registration) =>
      (
        registration as ServiceWorkerRegistration & {
          sync?: { register(tag: string): Promise<void> };
        }
      ).sync?.register("fairshake-offline-queue"),
    )
    .catch(() => {});
}

/** Mirrors this person's counts for the header and the other tabs. */
export async function publishCounts(userId: number) {
  const mine = (await allKept()).filter((a) => a.userId === userId);
  writeCounts(userId, {
    waiting: mine.filter((a) => a.state === "waiting").length,
    refused: mine.filter((a) => a.state === "refused").length,
  });
}
