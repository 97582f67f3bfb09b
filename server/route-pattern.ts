// The route pattern a request matched (`/bet/:id`, never `/bet/42`): logs and
// metrics name routes by pattern, so neither leaks ids, codes or tokens from
// the path and the metrics keep a bounded number of series.
import type { IncomingMessage } from "node:http";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

type Node = { id: string; path?: string; index?: boolean; children: Node[] };

let roots: Node[] | null = null;

/** Called once the server build is loaded (production); until then, and in development, routes are "unknown". */
export function useRouteTable(routes: ServerBuild["routes"]) {
  const nodes = new Map<string, Node>();
  for (const route of Object.values(routes))
    if (route)
      nodes.set(route.id, {
        id: route.id,
        path: route.path,
        index: route.index,
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

export function routePattern(pathname: string): string {
  let path = pathname;
  let suffix = "";
  // React Router's single-fetch data requests: `/bet/1.data`, `/_root.data`.
  if (path.endsWith(".data")) {
    suffix = ".data";
    path = path.slice(0, -".data".length);
    if (path === "/_root") path = "/";
  }
  if (path.startsWith("/assets/")) return "/assets/*";
  if (!roots) return "unknown";
  const matches = matchRoutes(roots as unknown as RouteObject[], path);
  if (!matches) return "unmatched";
  if (suffix && path === "/") return "/_root.data";
  const joined = matches
    .map((m) => m.route.path ?? "")
    .filter(Boolean)
    .join("/");
  return `/${joined}`.replace(/\/{2,}/g, "/") + suffix;
}

const PATTERN = Symbol("routePattern");
type WithPattern = IncomingMessage & {
  [PATTERN]?: string;
  originalUrl?: string;
};

/** The request's route pattern, computed once. */
export function requestRoutePattern(req: IncomingMessage): string {
  const r = req as WithPattern;
  if (r[PATTERN] === undefined) {
    const url = r.originalUrl ?? r.url ?? "/";
    const q = url.indexOf("?");
    let pathname = q === -1 ? url : url.slice(0, q);
    try {
      pathname = decodeURIComponent(pathname);
    } catch {
      // A malformed escape: match the raw path.
    }
    r[PATTERN] = routePattern(pathname);
  }
  return r[PATTERN]!;
}
