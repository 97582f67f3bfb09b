// The production launcher, compiled alone to build/server.js: it imports
// only the server build (build/server/index.js, whose entry is server/app.ts)
// and hands it the files a process is started from. Litestream, workers and
// the serving process are all decided inside the build (server/launch.ts).
import { fileURLToPath } from "node:url";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const build = (await import(
  /* @vite-ignore */ new URL("./server/index.js", import.meta.url).href
)) as typeof import("./server/app");

await build.launch({
  launcher: here("./server.js"),
  oneProcess: here("./app-server.js"),
});
