// Which route a request reaches, asked of React Router's own matcher, once
// per request. Logs and metrics name routes by pattern (`/bet/:id`, never
// `/bet/42`), so neither leaks ids, codes or tokens from the path and the
// metrics keep a bounded number of series; the body limit is the matched
// route's (app/framework/request-handler.ts), whatever spelling reached it.
import type { IncomingMessage } from "node:http";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import {
  messageAreasOf,
  traitsOf,
  type RouteTraits,
} from "~/domain/route-traits";

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
// Every static segment of every route path, lower-cased ("bet", "api", …).
let statics = new Set<string>();
// matchRoutes flattens, ranks and compiles the whole route table on every
// call (React Router keeps precomputed branches only for its own handler),
// a share of a page's CPU measured in docs/decisions/archive/0810-middleware-and-render-cpu.md. Its answers are kept here under the path's *shape*:
// each segment that is no route's static segment stands for any other such
// segment (only dynamic segments and splats can match it), so `/bet/1` and
// `/bet/999` share one entry and the shapes are few. Bounded all the same.
const byShape = new Map<string, Matched>();
const SHAPES_KEPT = 500;
const SHAPE_MAX_LENGTH = 512;

/** A build's route table nested as matchRoutes takes it (each route's `handle` kept). */
export function nestRoutes(routes: ServerBuild["routes"]): Node[] {
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
  return top;
}

/**
 * The page a single-fetch data request stands for, as React Router reads it
 * (trailing-slash aware since 8): `/bet/1.data` → `/bet/1`, `/bets/_.data` →
 * `/bets/`, `/_.data` → `/`; null for any other path.
 */
export function dataRequestPage(pathname: string): string | null {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  if (pathname.endsWith(".data")) return pathname.slice(0, -".data".length);
  return null;
}

/** Called once the server build is loaded (production); until then, and in development, routes are "unknown". */
export function useRouteTable(routes: ServerBuild["routes"]) {
  if (routes === table) return;
  table = routes;
  roots = nestRoutes(routes);
  statics = new Set(
    Object.values(routes).flatMap((route) =>
      (route?.path ?? "")
        .split("/")
        .filter((s) => s && !s.startsWith(":") && s !== "*")
        .map((s) => s.toLowerCase()),
    ),
  );
  byShape.clear();
}

/** The path with every segment that no route names replaced by ":" (null: not cacheable). */
function shapeOf(path: string): string | null {
  if (path.length > SHAPE_MAX_LENGTH || !path.startsWith("/")) return null;
  const segments = path.split("/");
  for (let i = 1; i < segments.length; i += 1) {
    const raw = segments[i]!;
    if (raw === "") continue;
    let decoded: string;
    try {
      // Matched as React Router matches: each segment decoded first.
      decoded = decodeURIComponent(raw);
    } catch {
      return null; // React Router then matches the raw path: not worth a shape
    }
    if (!statics.has(decoded.toLowerCase())) segments[i] = ":";
  }
  return segments.join("/");
}

function matchPathByShape(pathname: string): Matched {
  if (!roots || pathname.startsWith("/assets/")) return matchPath(pathname);
  // The answer depends on the path as matched (without a data request's
  // suffix, see matchPath) and on the suffix.
  const page = dataRequestPage(pathname);
  const data = page !== null;
  const shape = shapeOf(page ?? pathname);
  if (shape === null) return matchPath(pathname);
  const key = data ? `${shape} .data` : shape;
  let matched = byShape.get(key);
  if (!matched) {
    matched = matchPath(pathname);
    if (byShape.size >= SHAPES_KEPT) byShape.clear();
    byShape.set(key, matched);
  }
  return matched;
}

/** The route's pattern, the `handle` exports along it, and the leaf route's id. */
type Matched = { pattern: string; handles: unknown[]; leaf?: string };

function matchPath(pathname: string): Matched {
  // React Router's single-fetch data requests: `/bet/1.data`, `/_.data`.
  const page = dataRequestPage(pathname);
  const path = page ?? pathname;
  const suffix = page === null ? "" : ".data";
  if (path.startsWith("/assets/")) return { pattern: "/assets/*", handles: [] };
  if (!roots) return { pattern: "unknown", handles: [] };
  const matches = matchRoutes(roots as unknown as RouteObject[], path);
  if (!matches) return { pattern: "unmatched", handles: [] };
  const handles = matches.map((m) => (m.route as unknown as Node).handle);
  const leaf = (matches[matches.length - 1]!.route as unknown as Node).id;
  if (suffix && path === "/") return { pattern: "/_.data", handles, leaf };
  const joined = matches
    .map((m) => m.route.path ?? "")
    .filter(Boolean)
    .join("/");
  return {
    pattern: `/${joined}`.replace(/\/{2,}/g, "/") + suffix,
    handles,
    leaf,
  };
}

export function routePattern(pathname: string): string {
  return matchPathByShape(pathname).pattern;
}

/**
 * What the route a path reaches says of itself (its `handle`, see
 * ./route-traits.ts); a data request's path names its page's route. Nothing
 * before the route table is known.
 */
export function routeTraits(pathname: string): RouteTraits {
  return traitsOf(matchPathByShape(pathname).handles);
}

/**
 * The message areas the page a path reaches needs (its routes'
 * `handle.messages`); null while the route table is not known (every area).
 */
export function routeMessageAreas(pathname: string): string[] | null {
  if (!roots) return null;
  return messageAreasOf(matchPathByShape(pathname).handles);
}

/** The same answer without the kept shapes (for tests). */
export function routePatternUncached(pathname: string): string {
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
    r[MATCHED] = matchPathByShape(q === -1 ? url : url.slice(0, q));
  }
  return r[MATCHED]!;
}

/** The request's route pattern, computed once. */
export function requestRoutePattern(req: IncomingMessage): string {
  return requestMatch(req).pattern;
}

/** The id of the route the request reaches (undefined: no route table yet, or an asset). */
export function requestLeafRoute(req: IncomingMessage): string | undefined {
  return requestMatch(req).leaf;
}

/** The traits of the route the request reaches (./route-traits.ts). */
export function requestRouteTraits(req: IncomingMessage): RouteTraits {
  return traitsOf(requestMatch(req).handles);
}

/**
 * Whether a request is React Router's single-fetch data request
 * (`/bet/1.data`, `/_.data`), read from its raw URL: the one spelling of
 * that rule for the server (the service worker, a file of its own, says it
 * again in public/sw.js).
 */
export function isDataRequest(request: Request): boolean {
  return dataRequestPage(new URL(request.url).pathname) !== null;
}
