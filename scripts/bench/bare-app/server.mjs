// The bare app's server: React Router's node-custom-server template in
// production mode (Express 5, compression, hashed assets cached for a year).
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import path from "node:path";
import zlib from "node:zlib";

const dir = path.dirname(new URL(import.meta.url).pathname);
const app = express();
app.disable("x-powered-by");
// The same compression settings as Fairshake's server.ts (a 256 KB brotli
// window), so the comparison measures Fairshake's own work, not a setting.
app.use(
  compression({
    brotli: {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
      },
    },
  }),
);
app.use(
  "/assets",
  express.static(path.join(dir, "build/client/assets"), {
    immutable: true,
    maxAge: "1y",
  }),
);
app.use(express.static(path.join(dir, "build/client"), { maxAge: "1h" }));
app.use(
  createRequestHandler({
    build: await import(path.join(dir, "build/server/index.js")),
  }),
);
const port = Number(process.env.PORT ?? 3000);
app.listen(port, () =>
  console.info(`Bare app listening on http://localhost:${port}`),
);
