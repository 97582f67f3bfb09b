// Compiles server.ts (and the modules it imports from app/ and server/) to
// build/app-server.js, and the launcher server/main.ts (Litestream,
// workers) to build/server.js; npm packages stay external and load from
// node_modules.
import { build } from "esbuild";

await build({
  entryPoints: { "app-server": "server.ts", server: "server/main.ts" },
  outdir: "build",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
