import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import { shellChunks } from "./scripts/bundling/shell-chunks.ts";

const appFile = (file: string) =>
  fileURLToPath(new URL(`./app/${file}`, import.meta.url));
const shell = shellChunks([
  { name: "shell", roots: [appFile("entry.client.tsx"), appFile("root.tsx")] },
  { name: "app-shell", roots: [appFile("routes/app-layout.tsx")] },
]);

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), shell.plugin],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    // Every byte of JavaScript is paid again on a slow phone; keep the
    // warning close to the budget so growth is noticed. The largest chunk is
    // the shell's packages (React DOM, React Router, React, Lingui): 351 kB
    // minified, 111 kB gzip.
    chunkSizeWarningLimit: 360,
  },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: { codeSplitting: { groups: shell.groups } },
        },
      },
    },
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
