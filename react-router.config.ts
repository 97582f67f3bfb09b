import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Every page loads the whole route manifest as one hashed, cacheable file
  // (about 3 KB gzipped) instead of carrying a partial one inline that the
  // client then extends with /__manifest requests: no per-request matching of
  // "/" against every route on the server, 4 KB less per page, and no extra
  // round trip on a client navigation (docs/decisions/archive/0837-route-manifest-up-front.md).
  routeDiscovery: { mode: "initial" },
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_viteEnvironmentApi: true,
    // Data requests keep a trailing slash: `/my-bets/_.data`, and `/_.data`
    // for home (app/framework/route-pattern.ts reads both).
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
