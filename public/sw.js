// Fairshake's service worker: an offline page when the network is gone, and
// the hashed build assets kept for repeat visits.
// It never caches pages or API answers (they hold private data and money).
const CACHE = "fairshake-offline-v1";
const OFFLINE_URL = "/offline.html";

// --- Hashed assets (docs/decisions/0801) -------------------------------------
// Files under /assets/ are named by their content hash and never change, so
// a copy is always right: a repeat visit takes its JavaScript from here and
// downloads none. A new build has new names; old names are pruned past
// ASSET_LIMIT, oldest first.
const ASSETS = "fairshake-assets-v1";
const ASSET_LIMIT = 120;
const isAsset = (url) =>
  url.origin === self.location.origin && url.pathname.startsWith("/assets/");

async function keepAssets(urls) {
  const cache = await caches.open(ASSETS);
  for (const url of urls) {
    if (await cache.match(url)) continue;
    const response = await fetch(url).catch(() => null);
    if (response && response.ok) await cache.put(url, response);
  }
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - ASSET_LIMIT)))
    await cache.delete(old);
}

async function assetFirst(request) {
  const cache = await caches.open(ASSETS);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

// The first page loads its assets before this worker runs; once hydrated it
// names them here (app/utils/service-worker.ts) so they are kept from the
// HTTP cache, not downloaded again.
self.addEventListener("message", (event) => {
  const urls = event.data && event.data.keepAssets;
  if (!Array.isArray(urls)) return;
  const assets = urls
    .map((u) => new URL(u, self.location.origin))
    .filter(isAsset)
    .map((u) => u.href);
  event.waitUntil(keepAssets(assets));
});
// -------------------------------------------------------------------------------

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([OFFLINE_URL, "/favicon.svg"])),
  );
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((k) => k !== CACHE && k !== ASSETS)
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (isAsset(url)) {
    event.respondWith(assetFirst(request));
    return;
  }
  // Only page navigations get a fallback; everything else goes to the network untouched.
  if (request.mode !== "navigate") return;
  event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_URL)));
});

// Web Push (docs/product-rules.md#notifications): the payload is {title, body, url}; a tap opens url
// (a path on this site), reusing an open tab when there is one.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const url =
    typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
  event.waitUntil(
    self.registration.showNotification(data.title || "Fairshake", {
      body: data.body || "",
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(
    (event.notification.data && event.notification.data.url) || "/",
    self.location.origin,
  ).href;
  event.waitUntil(
    self.clients
      .matchAll({ type: "window", includeUncontrolled: true })
      .then((windows) => {
        const open = windows.find((w) =>
          w.url.startsWith(self.location.origin),
        );
        if (open) return open.navigate(url).then((w) => (w || open).focus());
        return self.clients.openWindow(url);
      }),
  );
});
