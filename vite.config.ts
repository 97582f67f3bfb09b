import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    // Every byte of JavaScript is paid again on a slow phone; keep the
    // warning close to the budget so growth is noticed.
    chunkSizeWarningLimit: 200,
  },
  environments: {
    ssr: {
      // Drizzle's package.json is 180 KB of export paths, and Node reads it
      // again for every one of Drizzle's ~150 modules it loads: about half a
      // second of every server start. Bundled, it is read by nobody at run
      // time (docs/decisions/1160-a-server-starts-in-a-second.md).
      resolve: { noExternal: ["drizzle-orm"] },
      build: {
        // The server build's entry is the server itself, which imports React
        // Router's route table (`virtual:react-router/server-build`): one
        // build, one module graph per process (docs/decisions/1040-one-module-graph.md).
        // Vite's Environment API, which React Router 8 always uses, reads
        // it here (the node-custom-server template's form).
        rollupOptions: { input: "./server/app.ts" },
      },
    },
  },
});
