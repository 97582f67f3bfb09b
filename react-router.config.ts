import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Every page loads the whole route manifest as one hashed, cacheable file
  // (about 3 KB gzipped) instead of carrying a partial one inline that the
  // client then extends with /__manifest requests: no per-request matching of
  // "/" against every route on the server, 4 KB less per page, and no extra
  // round trip on a client navigation (docs/decisions/archive/0837-route-manifest-up-front.md).
  routeDiscovery: { mode: "initial" },
  // React Router 8 splits a route's client exports (clientAction, …) into
  // chunks of their own by default. Kept whole: a form's clientAction must be
  // in hand when it is sent, also offline and on a shaky connection, not
  // fetched at that moment (docs/decisions/1070-node-24-and-react-router-8.md).
  splitRouteModules: false,
} satisfies Config;
