// Compiles the two launchers, which import nothing but the server build
// (build/server/index.js, made by `react-router build` from server/app.ts):
// server.ts to build/server.js (Litestream, workers) and server/app-server.ts
// to build/app-server.js (one process serving). No app code is compiled
// here: it is all in the one Vite build (docs/decisions/1040-one-module-graph.md).
import { build } from "esbuild";

await build({
  entryPoints: { server: "server.ts", "app-server": "server/app-server.ts" },
  outdir: "build",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
