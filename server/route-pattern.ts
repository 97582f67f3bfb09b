// Which route a request reaches, asked of React Router's own matcher, once
// per request. Logs and metrics name routes by pattern (`/bet/:id`, never
// `/bet/42`), so neither leaks ids, codes or tokens from the path and the
// metrics keep a bounded number of series; the body limit is the matched
// route's (server/request-handler.ts), whatever spelling reached it.
import type { IncomingMessage } from "node:http";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

type Node = {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  handle?: unknown;
  children: Node[];
};

let roots: Node[] | null = null;
let table: ServerBuild["routes"] | null = null;

/** Called once the server build is loaded (production); until then, and in development, routes are "unknown". */
export function useRouteTable(routes: ServerBuild["routes"]) {
  if (routes === table) return;
  table = routes;
  const nodes = new Map<string, Node>();
  for (const route of Object.values(routes))
    if (route)
      nodes.set(route.id, {
        id: route.id,
        path: route.path,
        index: route.index,
        caseSensitive: route.caseSensitive,
        handle: route.module.handle,
        children: [],
      });
  const top: Node[] = [];
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    (parent ? parent.children : top).push(node);
  }
  roots = top;
}

type Matched = { pattern: string; handles: unknown[] };

function matchPath(pathname: string): Matched {
  let path = pathname;
  let suffix = "";
  // React Router's single-fetch data requests: `/bet/1.data`, `/_root.data`.
  if (path.endsWith(".data")) {
    suffix = ".data";
    path = path.slice(0, -".data".length);
    if (path === "/_root") path = "/";
  }
  if (path.startsWith("/assets/")) return { pattern: "/assets/*", handles: [] };
  if (!roots) return { pattern: "unknown", handles: [] };
  const matches = matchRoutes(roots as unknown as RouteObject[], path);
  if (!matches) return { pattern: "unmatched", handles: [] };
  const handles = matches.map((m) => (m.route as unknown as Node).handle);
  if (suffix && path === "/") return { pattern: "/_root.data", handles };
  const joined = matches
    .map((m) => m.route.path ?? "")
    .filter(Boolean)
    .join("/");
  return {
    pattern: `/${joined}`.replace(/\/{2,}/g, "/") + suffix,
    handles,
  };
}

export function routePattern(pathname: string): string {
  return matchPath(pathname).pattern;
}

const MATCHED = Symbol("matchedRoute");
type WithMatch = IncomingMessage & {
  [MATCHED]?: Matched;
  originalUrl?: string;
};

function requestMatch(req: IncomingMessage): Matched {
  const r = req as WithMatch;
  if (r[MATCHED] === undefined) {
    const url = r.originalUrl ?? r.url ?? "/";
    const q = url.indexOf("?");
    // Raw, as React Router receives it: matchRoutes decodes it once itself.
    r[MATCHED] = matchPath(q === -1 ? url : url.slice(0, q));
  }
  return r[MATCHED]!;
}

/** The request's route pattern, computed once. */
export function requestRoutePattern(req: IncomingMessage): string {
  return requestMatch(req).pattern;
}

/** The `handle` exports of the routes the request reaches, outermost first. */
export function requestRouteHandles(req: IncomingMessage): unknown[] {
  return requestMatch(req).handles;
}
