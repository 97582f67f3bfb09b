// One process serving, compiled alone to build/app-server.js: what each
// worker runs, and what the tests start. It imports only the server build
// (build/server/index.js, whose entry is server/app.ts).
const build = (await import(
  /* @vite-ignore */ new URL("./server/index.js", import.meta.url).href
)) as typeof import("./app");

await build.serve();
