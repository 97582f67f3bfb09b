// One build, two request handlers: the pages and the JSON API. React Router
// walks its whole route table several times for every request (the match of
// its handler and of <ServerRouter>, the routes <ServerRouter> builds, the
// partial manifest <Scripts> sends), so with one handler every page paid for
// the ~50 /api routes it can never reach, and every API call for the pages.
// Each handler gets the routes of its side only; which side a request is for
// is React Router's own answer over the whole table (app/framework/route-pattern.ts),
// so every spelling of a path reaches the route it reached before
// (docs/decisions/archive/0813-handlers-by-side-lean-request-log.md).
import type { ServerBuild } from "react-router";

type Routes = ServerBuild["routes"];

export type SplitBuild = {
  pages: ServerBuild;
  api: ServerBuild;
  /** Whether the route with this id is served by the API's handler. */
  isApiRoute: (routeId: string | undefined) => boolean;
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
  const side = (keep: Set<string>): ServerBuild => ({
    ...build,
    routes: only(build.routes, keep) as Routes,
    assets: {
      ...build.assets,
      routes: only(
        build.assets.routes,
        keep,
      ) as ServerBuild["assets"]["routes"],
    },
  });
  return {
    pages: side(pageSide),
    api: side(apiSide),
    isApiRoute: (routeId) => routeId !== undefined && apiIds.has(routeId),
  };
}
