// The server build's entry: `vite.config.ts` makes this file the input of
// React Router's SSR build (as React Router's `node-custom-server` template
// does), so build/server/index.js holds the server and the app together, one
// module graph per process (docs/decisions/1040-one-module-graph.md). The
// launchers import nothing else: server.ts (build/server.js: Litestream,
// workers), server/app-server.ts (build/app-server.js: one process serving)
// and, in development, server/dev.ts (through Vite's ssrLoadModule).
//
// `serve` is loaded on first use: a primary process or Litestream's parent
// only launches, and never evaluates the app (which opens the database).
import type { ServeOptions } from "./serve";

export { launch, type LaunchFiles } from "./launch";

/** Serves in this process: the database made ready, then listening. */
export async function serve(options?: ServeOptions) {
  const server = await import("./serve");
  await server.serve(options);
}
