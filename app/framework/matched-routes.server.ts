// What entry.server.tsx hands <ServerRouter> (docs/decisions/archive/0840-server-router-matched-routes.md). Relies on
// React Router internals: see docs/upgrading-react-router.md.
import type { EntryContext } from "react-router";

/**
 * The context <ServerRouter> renders from, with only the routes this request
 * matched. <ServerRouter> builds a route object for every route in
 * `manifest.routes` on every render (`createServerRoutes`, then
 * `createStaticRouter`'s `convertRoutesToDataRoutes`), every page route for
 * the two or three a page shows: a share of a page's CPU and allocations
 * measured in docs/decisions/archive/0840-server-router-matched-routes.md. Everything it renders reads the matched routes only: the
 * route elements come from the request's matches, and <Scripts> and <Links>
 * look up the matched routes; the client loads the whole manifest from its
 * file (`routeDiscovery: "initial"`, docs/decisions/archive/0837-route-manifest-up-front.md), never from here
 * (docs/decisions/archive/0840-server-router-matched-routes.md).
 */
export function withMatchedRoutesOnly(context: EntryContext): EntryContext {
  const routes: EntryContext["manifest"]["routes"] = {};
  for (const { route } of context.staticHandlerContext.matches) {
    const entry = context.manifest.routes[route.id];
    if (entry) routes[route.id] = entry;
  }
  return { ...context, manifest: { ...context.manifest, routes } };
}
