// Fairshake's service worker: an offline page when the network is gone, the
// hashed build assets kept for repeat visits, and the latest copy of the
// signed-in pages a person opened (home, My Bets, each bet page, Activity),
// kept for reading offline (docs/product-rules.md#offline-reading,
// docs/decisions/1001-offline-reading-of-kept-pages.md). Those copies are this person's only: any answer that
// names someone else, or no one, and signing out delete them all. No other
// page and no API answer is ever stored.
const CACHE = "fairshake-offline-v2";
// The offline page in the person's language: a copy of one of the four the
// server writes from the catalogs (server/offline-page.ts), all kept at
// install.
const OFFLINE_URL = "/offline.html";

// --- The offline page's language (docs/product-rules.md#languages) ---------
// Every page answer says which language the server chose for this person
// (the picker's cookie, their saved language, the browser's): the copy in
// place follows it. Before any answer, the browser's own languages decide.
const LANGUAGES = ["en", "es", "de", "pt-BR"];
const LANGUAGE_HEADER = "X-Fairshake-Language";
const offlinePagePath = (language) => `/offline/${language}.html`;

/** The language one of the browser's tags means, or null (as the app reads one). */
function languageOfTag(tag) {
  const primary = String(tag).trim().split("-")[0].toLowerCase();
  if (primary === "pt") return "pt-BR";
  return LANGUAGES.includes(primary) ? primary : null;
}

/** The first of the browser's languages we speak, else English. */
function browserLanguage(tags) {
  for (const tag of tags || []) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return "en";
}

// The language of the copy in place, once known in this worker's life.
let offlineLanguage;
let languageQueue = Promise.resolve();

/** Puts the offline page of `language` in place, unless it already is. */
function useOfflineLanguage(language) {
  const work = async () => {
    if (!LANGUAGES.includes(language)) return;
    const cache = await caches.open(CACHE);
    if (offlineLanguage === undefined) {
      const current = await cache.match(OFFLINE_URL);
      offlineLanguage = current
        ? current.headers.get("Content-Language")
        : null;
    }
    if (offlineLanguage === language) return;
    const page = await cache.match(offlinePagePath(language));
    if (!page) return;
    await cache.put(OFFLINE_URL, page);
    offlineLanguage = language;
  };
  languageQueue = languageQueue.then(work, work).catch(() => {});
  return languageQueue;
}

function noticeLanguage(response) {
  const language = response.headers.get(LANGUAGE_HEADER);
  return language ? useOfflineLanguage(language) : Promise.resolve();
}

async function offlinePage() {
  return (
    (await caches.match(OFFLINE_URL)) ||
    (await caches.match(offlinePagePath("en")))
  );
}

// --- Hashed assets (docs/decisions/archive/0801-service-worker-keeps-hashed-assets.md) -------------------------------------
// Files under /assets/ are named by their content hash and never change, so
// a copy is always right: a repeat visit takes its JavaScript from here and
// downloads none. A new build has new names; old names are pruned past
// ASSET_LIMIT, oldest first.
const ASSETS = "fairshake-assets-v1";
const ASSET_LIMIT = 120;
// A page's messages (/messages/<language>/<areas>.<hash>.json) are named by
// their content too, and a kept page cannot hydrate without them.
const isAsset = (url) =>
  url.origin === self.location.origin &&
  (url.pathname.startsWith("/assets/") ||
    url.pathname.startsWith("/messages/"));

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
// names them here (app/browser/service-worker.ts) so they are kept from the
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

// --- Kept pages, for reading offline (docs/decisions/1001-offline-reading-of-kept-pages.md) ---------------------
// Navigations to the pages below go to the network first; a 200 HTML answer
// for a signed-in person is kept, with the time it was fetched, in a cache
// named after that person ("fairshake-pages-<id>"), at most PAGE_LIMIT of
// them for PAGE_MAX_AGE_MS. When the network is gone (fetch throws), the kept
// copy answers, rewritten as a plain document: no scripts, a banner saying
// when it was kept, every form control disabled. A page never kept gets the
// offline page.
const PAGES_PREFIX = "fairshake-pages-";
const PAGE_LIMIT = 50;
const PAGE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
// Set by the server on every answer that looked up the session
// (SIGNED_IN_USER_HEADER in app/models/accounts/session.server.ts): the
// user's id, or "-" when no one is signed in.
const USER_HEADER = "X-Fairshake-User";
const KEPT_AT_HEADER = "X-Fairshake-Kept-At";
// Which posts sign out (the page form, its data request, the API) and which
// pages are kept for reading: each route says so in its own `handle`, and the
// server writes the list here as it serves this file
// (server/service-worker-file.ts). Read as it is in the repository, the file
// keeps no page and forgets at no path.
const ROUTES = /*route-traits*/ { signOut: [], keptForReading: [] };

/**
 * Whether a path is a route pattern's (`/bet/:id`) as the page's own links
 * spell it: static segments as written, a dynamic one an id (Fairshake's ids
 * are whole numbers).
 */
function matchesRoute(pattern, pathname) {
  const want = pattern.split("/");
  const got = pathname.split("/");
  if (want.length !== got.length) return false;
  return want.every((part, i) =>
    part.startsWith(":") ? /^\d+$/.test(got[i]) : part === got[i],
  );
}

/**
 * The cache key of a page that may be kept, or null: the pages whose route
 * says so (home, My Bets, a bet page, Activity), same origin, without a
 * query (tabs and one-off links are not kept).
 */
function keptPageKey(href, origin) {
  const url = new URL(href);
  if (url.origin !== origin || url.search !== "" || url.hash !== "")
    return null;
  return ROUTES.keptForReading.some((pattern) =>
    matchesRoute(pattern, url.pathname),
  )
    ? url.origin + url.pathname
    : null;
}

/**
 * The page a client-side navigation's data request (`/bet/7.data?_routes=…`,
 * `/my-bets/_.data` with a trailing slash, `/_.data` for home) stands for, as
 * a path with its query, or null (as React Router 8 reads it).
 */
function pageOfDataRequest(href) {
  const url = new URL(href);
  if (!url.pathname.endsWith(".data")) return null;
  url.searchParams.delete("_routes");
  const path = url.pathname.endsWith("/_.data")
    ? url.pathname.slice(0, -6)
    : url.pathname.slice(0, -5) || "/";
  const query = url.searchParams.toString();
  return path + (query ? `?${query}` : "");
}

/**
 * The keys to delete from a kept-pages cache: anything older than
 * PAGE_MAX_AGE_MS, then the oldest past PAGE_LIMIT. `entries` are
 * {key, keptAt} (ms since the epoch).
 */
function pagesToDrop(entries, now) {
  const fresh = entries
    .filter((e) => now - e.keptAt <= PAGE_MAX_AGE_MS)
    .sort((a, b) => b.keptAt - a.keptAt)
    .slice(0, PAGE_LIMIT);
  const keep = new Set(fresh.map((e) => e.key));
  return entries.filter((e) => !keep.has(e.key)).map((e) => e.key);
}

const escapeHtml = (text) =>
  text.replace(
    /[&<>"']/g,
    (c) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[
        c
      ],
  );

// The banner's words when no offline page in the person's language says
// them (server/offline-page.ts writes them into each).
const KEPT_BANNER_ENGLISH = "Offline — showing this page as it was at {time}.";

/**
 * A kept page as it is shown offline: its scripts taken out (it is read as
 * plain HTML, never hydrated, so the banner and the disabled controls stay
 * as written), `data-offline-copy` on <html>, the banner right after <body>,
 * and every button, input, select and textarea disabled. `keptAtText` is the
 * time it was kept, already formatted.
 */
function offlineCopyHtml(html, keptAtText, words = KEPT_BANNER_ENGLISH) {
  const banner =
    `<div role="status" data-offline-banner style="position:sticky;top:0;z-index:100;` +
    `background:#fef3c7;color:#78350f;border-bottom:1px solid #f59e0b;` +
    `padding:8px 16px;font:500 14px/1.4 system-ui,sans-serif;text-align:center">` +
    `${escapeHtml(words.replace("{time}", () => keptAtText))}</div>`;
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, "")
    .replace(/<(button|input|select|textarea)\b/gi, "<$1 disabled")
    .replace(/<html\b/i, "<html data-offline-copy")
    .replace(/<body\b[^>]*>/i, (body) => body + banner);
}

const unescapeHtml = (text) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name],
  );

/**
 * The banner's words and language: those of the offline page in place (its
 * `fairshake-kept-banner` meta, written from the catalogs), else English.
 */
async function keptBanner() {
  const page = await offlinePage();
  if (!page) return { words: KEPT_BANNER_ENGLISH, language: undefined };
  const meta = /<meta name="fairshake-kept-banner" content="([^"]*)"/.exec(
    await page.text(),
  );
  return {
    words: meta ? unescapeHtml(meta[1]) : KEPT_BANNER_ENGLISH,
    language: page.headers.get("Content-Language") || undefined,
  };
}

/** The time a copy was kept, in the person's language and time zone. */
function keptAtText(keptAt, language) {
  return new Intl.DateTimeFormat(language, {
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(keptAt));
}

// Changes to the kept pages run one after another, so a copy kept for one
// person can never land after another person's answer deleted them.
let pagesQueue = Promise.resolve();
function inOrder(work) {
  pagesQueue = pagesQueue.then(work, work).catch(() => {});
  return pagesQueue;
}

async function keptPagesCaches() {
  return (await caches.keys()).filter((k) => k.startsWith(PAGES_PREFIX));
}

/** Deletes every kept page except `userId`'s (every one when null). */
async function forgetKeptPagesBut(userId) {
  const own = userId ? PAGES_PREFIX + userId : null;
  for (const name of await keptPagesCaches())
    if (name !== own) await caches.delete(name);
}

// Who the latest answer was for ("-" after signing out), in this worker's
// life: a page still arriving for someone else is not kept.
let latestUser;

/**
 * Reads who an answer was for (same-origin answers only) and, when that is
 * someone else than the kept pages' owner, or no one, deletes them.
 */
function noticeUser(response) {
  const user = response.headers.get(USER_HEADER);
  if (user === null) return Promise.resolve();
  latestUser = user;
  return inOrder(() => forgetKeptPagesBut(/^\d+$/.test(user) ? user : null));
}

function noticeSignOut() {
  latestUser = "-";
  return inOrder(() => forgetKeptPagesBut(null));
}

async function keepPage(key, response) {
  const user = response.headers.get(USER_HEADER);
  const type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || !/^\d+$/.test(user || "")) return;
  if (!type.startsWith("text/html")) return;
  const html = await response.text();
  const keptAt = Date.now();
  await inOrder(async () => {
    // Signed out, or someone else answered, while this page was arriving.
    if (latestUser !== user) return;
    await forgetKeptPagesBut(user);
    const cache = await caches.open(PAGES_PREFIX + user);
    await cache.put(
      key,
      new Response(html, {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          [KEPT_AT_HEADER]: String(keptAt),
        },
      }),
    );
    const entries = [];
    for (const request of await cache.keys()) {
      const kept = await cache.match(request);
      entries.push({
        key: request.url,
        keptAt: Number(kept && kept.headers.get(KEPT_AT_HEADER)) || 0,
      });
    }
    for (const old of pagesToDrop(entries, Date.now())) await cache.delete(old);
  });
  // The stylesheet the copy links, so it is styled offline too.
  const styles = [...html.matchAll(/href="(\/assets\/[^"]+\.css)"/g)].map(
    (m) => new URL(m[1], self.location.origin).href,
  );
  if (styles.length) await keepAssets(styles);
}

/** The kept copy of `key` rewritten for offline reading, or null. */
async function keptCopy(key) {
  for (const name of await keptPagesCaches()) {
    const kept = await (await caches.open(name)).match(key);
    if (!kept) continue;
    const keptAt = Number(kept.headers.get(KEPT_AT_HEADER)) || 0;
    if (Date.now() - keptAt > PAGE_MAX_AGE_MS) return null;
    const banner = await keptBanner();
    return new Response(
      offlineCopyHtml(
        await kept.text(),
        keptAtText(keptAt, banner.language),
        banner.words,
      ),
      {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "no-store",
          // Read only: no script runs and no form is sent from a kept copy.
          "Content-Security-Policy":
            "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; " +
            "img-src 'self' data: blob: https:; form-action 'none'; object-src 'none'; " +
            "base-uri 'none'; frame-ancestors 'none'",
        },
      },
    );
  }
  return null;
}

async function navigate(event) {
  const { request } = event;
  const key = keptPageKey(request.url, self.location.origin);
  let response;
  try {
    response = await fetch(request);
  } catch {
    return (key && (await keptCopy(key))) || offlinePage();
  }
  // Cloned now: the browser starts reading the answer as soon as it is returned.
  const copy = key ? response.clone() : null;
  event.waitUntil(
    Promise.all([
      noticeLanguage(response),
      noticeUser(response).then(() => (copy ? keepPage(key, copy) : undefined)),
    ]),
  );
  return response;
}

/**
 * A client-side navigation's data request. Online it goes through as it is
 * (and says who it was for). When the network is gone, React Router is told
 * to load the page as a document instead (a 204 with X-Remix-Redirect and
 * X-Remix-Reload-Document, its single-fetch redirect), and that document
 * navigation gets the kept copy or the offline page above.
 */
async function pageData(event, page) {
  let response;
  try {
    response = await fetch(event.request);
  } catch {
    return new Response(null, {
      status: 204,
      headers: {
        "X-Remix-Redirect": page,
        "X-Remix-Status": "302",
        "X-Remix-Reload-Document": "true",
      },
    });
  }
  event.waitUntil(
    Promise.all([noticeLanguage(response), noticeUser(response)]),
  );
  return response;
}
// -------------------------------------------------------------------------------

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then(async (cache) => {
      await cache.addAll([...LANGUAGES.map(offlinePagePath), "/favicon.svg"]);
      // The copy in place is refreshed in its own language (the new
      // worker's words), else put in the browser's.
      const current = await cache.match(OFFLINE_URL);
      const language =
        (current && current.headers.get("Content-Language")) ||
        browserLanguage(self.navigator && self.navigator.languages);
      offlineLanguage = null;
      await useOfflineLanguage(language);
    }),
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
            .filter(
              (k) => k !== CACHE && k !== ASSETS && !k.startsWith(PAGES_PREFIX),
            )
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  const sameOrigin = url.origin === self.location.origin;
  if (request.method !== "GET") {
    // Signing out forgets the kept pages at once, whatever the answer.
    if (request.method === "POST" && sameOrigin)
      if (ROUTES.signOut.includes(url.pathname))
        event.waitUntil(noticeSignOut());
    return;
  }
  if (isAsset(url)) {
    event.respondWith(assetFirst(request));
    return;
  }
  // Page navigations: network first, then the kept copy or the offline page.
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
    return;
  }
  // A client-side navigation's data: a document load when offline.
  const page = sameOrigin ? pageOfDataRequest(request.url) : null;
  if (page) event.respondWith(pageData(event, page));
  // Everything else goes to the network untouched.
});

// Web Push (docs/product-rules.md#notifications): the payload is {title, body, url}; a tap opens url
// (a path on this site), reusing an open tab when there is one.
self.addEventListener("push", (event) => {
  let data;
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

// --- Actions kept offline (docs/decisions/1045-offline-actions-queue.md) ------
// The page keeps the actions and sends them through its router; Background
// Sync, where the browser has it, only tells an open page the connection is
// back. With no page open they wait for the next one.
self.addEventListener("sync", (event) => {
  if (event.tag !== "fairshake-offline-queue") return;
  event.waitUntil(
    self.clients
      .matchAll({ type: "window" })
      .then((windows) =>
        windows.forEach((client) => client.postMessage({ sendWaiting: true })),
      ),
  );
});
