// Compiles server.ts (and the modules it imports from app/) to
// build/app-server.js; npm packages stay external and load from node_modules.
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: "build/app-server.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
