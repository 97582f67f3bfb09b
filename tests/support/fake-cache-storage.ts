// An in-memory Cache Storage for running public/sw.js in a vm context
// (tests/sw/*.test.ts): the few methods the worker calls, nothing more.

type Key = string | { url: string };

export class FakeCache {
  entries = new Map<string, Response>();
  /**
   * `origin`: a worker's relative URLs are read against its own origin.
   * `fetchForAddAll`: what `addAll` stores for a URL (the install step).
   */
  constructor(
    private readonly origin: string,
    private readonly fetchForAddAll?: (url: string) => Response,
  ) {}
  private urlOf = (key: Key) =>
    new URL(typeof key === "string" ? key : key.url, this.origin).href;
  async put(key: Key, response: Response) {
    // Newest last, as a real cache lists its keys.
    this.entries.delete(this.urlOf(key));
    this.entries.set(this.urlOf(key), response);
  }
  async match(key: Key) {
    return this.entries.get(this.urlOf(key))?.clone();
  }
  async addAll(urls: string[]) {
    if (!this.fetchForAddAll) throw new Error("addAll: no responses given");
    for (const url of urls) await this.put(url, this.fetchForAddAll(url));
  }
  async keys() {
    return [...this.entries.keys()].map((url) => ({ url }));
  }
  async delete(key: Key) {
    return this.entries.delete(this.urlOf(key));
  }
}

/** The `caches` global over `store`, each cache made by `newCache`. */
export function fakeCacheStorage(
  store: Map<string, FakeCache>,
  newCache: () => FakeCache,
) {
  return {
    keys: async () => [...store.keys()],
    open: async (name: string) => {
      if (!store.has(name)) store.set(name, newCache());
      return store.get(name)!;
    },
    delete: async (name: string) => store.delete(name),
    match: async (key: string) => {
      for (const cache of store.values()) {
        const hit = await cache.match(key);
        if (hit) return hit;
      }
      return undefined;
    },
  };
}
