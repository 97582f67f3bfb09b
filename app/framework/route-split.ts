// One build, two request handlers: the pages and the JSON API. React Router
// walks its whole route table several times for every request (the match of
// its handler and of <ServerRouter>, the routes <ServerRouter> builds, the
// partial manifest <Scripts> sends), so with one handler every page paid for
// the ~50 /api routes it can never reach, and every API call for the pages.
// Each handler gets the routes of its side only; which side a request is for
// is React Router's own answer over the whole table (app/framework/route-pattern.ts),
// so every spelling of a path reaches the route it reached before
// (docs/decisions/archive/0813-handlers-by-side-lean-request-log.md).
//
// The browser gets the pages' side too. With `routeDiscovery: "initial"` a
// page imports the whole route manifest as a file, and React Router walks
// every route in it several times while it hydrates (a long task on a slow
// phone) though the browser never routes to /api: it only fetch()es it. So
// the pages' handler names a manifest file of its own routes, which
// `pagesManifest` holds and the request door serves
// (docs/decisions/archive/1057-the-browser-knows-the-pages-only.md).
import { createHash } from "node:crypto";
import type { ServerBuild } from "react-router";
import {
  traitsOf,
  type BrowserRouteTraits,
  type RouteTraits,
} from "~/domain/route-traits";

type Routes = ServerBuild["routes"];
type Assets = ServerBuild["assets"];

export type SplitBuild = {
  pages: ServerBuild;
  api: ServerBuild;
  /** Whether the route with this id is served by the API's handler. */
  isApiRoute: (routeId: string | undefined) => boolean;
  /** The browser's route manifest of the pages' side: its URL and its file. */
  pagesManifest: { url: string; source: string };
};

const API_PATH = /^api(\/|$)/i;

/** A route's full path from the root, as the route table nests it. */
function fullPathOf(routes: Routes, id: string): string {
  const parts: string[] = [];
  for (let route = routes[id]; route; route = routes[route.parentId ?? ""])
    if (route.path) parts.unshift(route.path);
  return parts.join("/").replace(/\/{2,}/g, "/");
}

function only<T>(record: Record<string, T>, keep: Set<string>) {
  return Object.fromEntries(
    Object.entries(record).filter(([id]) => keep.has(id)),
  );
}

export function splitBuild(build: ServerBuild): SplitBuild {
  const ids = Object.keys(build.routes);
  const apiIds = new Set(
    ids.filter((id) => API_PATH.test(fullPathOf(build.routes, id))),
  );
  // The API's side keeps its routes' ancestors (the root, whose middleware
  // reads the session) without their pages.
  const apiSide = new Set(apiIds);
  for (const id of apiIds)
    for (let p = build.routes[id]?.parentId; p; p = build.routes[p]?.parentId)
      apiSide.add(p);
  const pageSide = new Set(ids.filter((id) => !apiIds.has(id)));
  const assetsOf = (keep: Set<string>): Assets => ({
    ...build.assets,
    routes: only(build.assets.routes, keep) as Assets["routes"],
  });
  const side = (keep: Set<string>, assets: Assets): ServerBuild => ({
    ...build,
    routes: only(build.routes, keep) as Routes,
    assets,
  });
  const { assets: pageAssets, manifest } = browserManifestOf(
    assetsOf(pageSide),
    routeTraitsTable(build.routes).offline,
  );
  return {
    pages: side(pageSide, pageAssets),
    api: side(apiSide, assetsOf(apiSide)),
    isApiRoute: (routeId) => routeId !== undefined && apiIds.has(routeId),
    pagesManifest: manifest,
  };
}

/**
 * The manifest file a page's module script imports, written as React
 * Router's plugin writes its own (`assets/manifest-<version>.js` assigning
 * `window.__reactRouterManifest`), for the routes `assets` holds; and those
 * assets naming it. The version is a hash of the content, so the file can be
 * cached for good like every other file under /assets/.
 */
function browserManifestOf(
  assets: Assets,
  offline: BrowserRouteTraits["offline"],
) {
  const fingerprinted = { entry: assets.entry, routes: assets.routes, offline };
  const version = createHash("sha256")
    .update(JSON.stringify(fingerprinted))
    .digest("hex")
    .slice(0, 8);
  const url = assets.url.replace(/[^/]*$/, `manifest-pages-${version}.js`);
  const named = { ...assets, url, version };
  return {
    assets: named,
    manifest: {
      url,
      // The pages whose unsent forms wait on the device, beside the routes
      // (app/browser/offline-queue/queueable.ts reads them).
      source:
        `window.__reactRouterManifest=${JSON.stringify({ entry: assets.entry, routes: assets.routes, url, version })};` +
        `window.__fairshakeOffline=${JSON.stringify(offline)};`,
    },
  };
}

/** The traits of a route from the root down (its ancestors' and its own `handle`). */
function traitsAlong(routes: Routes, id: string): RouteTraits {
  const handles: unknown[] = [];
  for (let route = routes[id]; route; route = routes[route.parentId ?? ""])
    handles.unshift(route.module.handle);
  return traitsOf(handles);
}

/**
 * What the browser and the service worker need to know of the routes, read
 * from their `handle`s (./route-traits.ts): which pages' forms wait offline
 * and what the list calls them, which posts end the session, which pages are
 * kept for reading.
 */
export function routeTraitsTable(routes: Routes): BrowserRouteTraits {
  const table: BrowserRouteTraits = {
    offline: [],
    signOut: [],
    keptForReading: [],
  };
  for (const [id, route] of Object.entries(routes)) {
    if (!route || route.module.handle === undefined) continue;
    const traits = traitsAlong(routes, id);
    const path = `/${fullPathOf(routes, id)}`.replace(/\/{2,}/g, "/");
    const page = !API_PATH.test(fullPathOf(routes, id));
    if (page && traits.offline)
      table.offline.push({ pattern: path, offline: traits.offline });
    if (traits.session === "ends")
      table.signOut.push(path, ...(page ? [`${path}.data`] : []));
    if (page && traits.keptForReading) table.keptForReading.push(path);
  }
  return table;
}
