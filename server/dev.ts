// `npm run dev`: Vite's dev server in middleware mode, and the server loaded
// through it (ssrLoadModule), as React Router's `node-custom-server`
// template does. The server and every route then come from Vite's one
// module graph, reloaded as files change; this file imports nothing of the
// app itself.
import { createServer } from "vite";

const vite = await createServer({ server: { middlewareMode: true } });
const app = (await vite.ssrLoadModule(
  "/server/app.ts",
)) as typeof import("./app");
await app.serve({ vite });
