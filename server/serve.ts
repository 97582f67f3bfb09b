// One process serving. The database is made ready first
// (server/start-up.ts), then the Express stages run, in this order: logging
// and metrics, security headers with a fresh CSP nonce, 405 for a method no
// route serves, compression, draining an unread body, refusing cross-site
// changes, the /api content type, static files, and last the React Router
// request handler (app/framework/request-handler.ts), where every request
// passes the root middlewares (app/pipeline/) and the abuse limits are
// counted in the models. This module
// is part of the one server build (server/app.ts is its entry), so it and
// the routes share every module: one database connection, one set of
// request-context keys, one list of stop hooks (docs/decisions/1040-one-module-graph.md).
import compression from "compression";
import express, {
  type NextFunction,
  type Request,
  type Response,
} from "express";
import fs from "node:fs";
import path from "node:path";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { closeDatabase, engine, sqlite } from "~/db/connections.server";
import { BROTLI_PARAMS } from "~/utils/compression.server";
import { randomToken } from "~/utils/random-token.server";
import { isProduction } from "~/utils/env.server";
import {
  port as portSetting,
  publicOrigin,
  stripeKeys,
} from "~/utils/env-settings.server";
import {
  clientAddressContext,
  nonceContext,
} from "~/framework/request-context.server";
import { createAppHandler } from "~/framework/request-handler";
import { requestRouteTraits, useRouteTable } from "~/framework/route-pattern";
import { routeTraitsTable } from "~/framework/route-split";
import { serveServiceWorker, serviceWorkerSource } from "./service-worker-file";
import { API_PREFIX, SIGNED_API_PATHS } from "~/route-paths";
import { clientAddress } from "./client-address";
import { closeConnectionsWhenStopping, stopGracefully } from "./lifecycle";
import { requestLogging } from "./logging";
import {
  collectProcessMetrics,
  httpMetrics,
  metricsServedHere,
  startMetricsServer,
} from "./metrics";
import { serveOfflinePages } from "./offline-page";
import { prepareToServe } from "./start-up";
import { discardUnreadBodyAfterAnswer } from "./unread-body";

const API_ROOT = `/${API_PREFIX}`;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// The methods a route may answer. Any other that Node's parser takes (TRACE,
// the WebDAV ones) is 405 at the door: TRACE reached the request handler,
// where the Fetch API refuses to build its Request, and was a 500 with a
// stack in the log; the others reached React Router, which answered 405
// but logged its own error, a stack, for each.
const SERVED_METHODS = [
  "GET",
  "HEAD",
  "OPTIONS",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
];
const SERVED = new Set(SERVED_METHODS);
// Calls whose authority is a signature, not a session: Stripe's webhook and
// the one-click unsubscribe a mail provider POSTs as a form (docs/product-rules.md#notifications),
// spelled once in app/route-paths.ts, which app/routes.ts uses too.
const WEBHOOK_PATHS = new Set(SIGNED_API_PATHS);

export type ServeOptions = {
  /**
   * Development (`npm run dev`, server/dev.ts): Vite's dev server, which
   * serves the client files and loads the route table afresh on each
   * change. Absent in production: the route table is this build's own.
   */
  vite?: ViteDevServer;
};

/** Makes the database ready, then serves in this process until stopped. */
export async function serve({ vite }: ServeOptions = {}) {
  await prepareToServe();

  const app = express();
  app.disable("x-powered-by");
  // Seen from outside (docs/operations.md#logs-and-metrics) and stopped gracefully (docs/operations.md#graceful-stop).
  app.use(requestLogging(), httpMetrics(), closeConnectionsWhenStopping);

  // --- Security headers, with a fresh CSP nonce per request -----------------
  app.use((req, res, next) => {
    const nonce = randomToken(16, "base64");
    res.locals.nonce = nonce;
    const stripe = stripeKeys() !== null;
    const csp = [
      "default-src 'self'",
      `script-src 'nonce-${nonce}' 'strict-dynamic'${stripe ? " https://js.stripe.com" : ""}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https:",
      "font-src 'self'",
      `connect-src 'self'${stripe ? " https://api.stripe.com" : ""}`,
      `frame-src ${stripe ? "https://js.stripe.com https://hooks.stripe.com" : "'none'"}`,
      `form-action 'self'${stripe ? " https://checkout.stripe.com" : ""}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "manifest-src 'self'",
      "worker-src 'self'",
    ].join("; ");
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader(
      "Permissions-Policy",
      "camera=(), microphone=(), geolocation=()",
    );
    if (
      isProduction &&
      (req.secure || req.get("X-Forwarded-Proto") === "https")
    ) {
      res.setHeader(
        "Strict-Transport-Security",
        "max-age=31536000; includeSubDomains",
      );
    }
    next();
  });

  // --- A method no route serves: 405, before anything else runs ------------
  app.use((req, res, next) => {
    if (SERVED.has(req.method)) return next();
    res.status(405).set("Allow", SERVED_METHODS.join(", "));
    if (req.path.startsWith(`${API_ROOT}/`))
      res.json({ error: "Method not allowed" });
    else res.type("text/plain").send("Method not allowed");
  });

  // Brotli for the browsers that take it (utils/compression.server.ts has the
  // settings); pages arrive gzip-compressed already (docs/decisions/archive/0836-pages-as-gzip.md) and pass through
  // untouched.
  app.use(compression({ brotli: { params: BROTLI_PARAMS } }));

  // The unread rest of a refused or early-answered body: a little is drained
  // so the connection lives on, a lot closes it (server/unread-body.ts).
  app.use((req, res, next) => {
    discardUnreadBodyAfterAnswer(req, res);
    next();
  });

  // --- Cross-site requests that change state are refused --------------------
  app.use((req, res, next) => {
    if (SAFE_METHODS.has(req.method) || WEBHOOK_PATHS.has(req.path))
      return next();
    const site = req.get("Sec-Fetch-Site");
    const origin = req.get("Origin");
    let crossSite = site === "cross-site";
    if (!crossSite && origin && origin !== "null") {
      try {
        const host = new URL(origin).host;
        crossSite = host !== req.get("Host") && origin !== publicOrigin();
      } catch {
        crossSite = true;
      }
    }
    if (origin === "null") crossSite = true;
    if (crossSite) {
      res.status(403);
      if (req.path.startsWith(`${API_ROOT}/`))
        res.json({ error: "Cross-site requests are not allowed" });
      else res.type("text/plain").send("Cross-site requests are not allowed");
      return;
    }
    next();
  });

  // --- The JSON API's door: the content type before any parsing --------------
  // (a body's size is checked in the request handler, against the matched
  // route's `handle.bodyLimit` or the default: app/framework/body-limits.ts)
  app.use(API_ROOT, (req, res, next) => {
    if (
      SAFE_METHODS.has(req.method) ||
      WEBHOOK_PATHS.has(req.originalUrl.split("?")[0] ?? "")
    )
      return next();
    // A route that says so in its `handle` (a message with its photos,
    // docs/api.md#messages) takes multipart too; it stays a session's call,
    // so the cross-site check above holds for it.
    if (
      /^multipart\/form-data\s*;/i.test(req.get("Content-Type") ?? "") &&
      requestRouteTraits(req).multipart
    )
      return next();
    if (!/^application\/json\s*(;|$)/i.test(req.get("Content-Type") ?? "")) {
      res.status(415).json({ error: "Content-Type must be application/json" });
      return;
    }
    next();
  });

  // --- Static files and the app ----------------------------------------------
  // The service worker's offline page, in each language (server/offline-page.ts).
  serveOfflinePages(app);
  let build: ServerBuild | (() => Promise<ServerBuild>);

  if (!vite) {
    const clientDir = path.resolve("build/client");
    // Hashed file names change with their content: cache them for a year.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), {
        immutable: true,
        maxAge: "1y",
      }),
    );
    // React Router's plugin serves the route table under this module id; the
    // build bundles it here (docs/upgrading-react-router.md).
    build =
      (await import("virtual:react-router/server-build")) as unknown as ServerBuild;
    useRouteTable(build.routes);
    // The service worker, with the routes' table written in.
    app.get(
      "/sw.js",
      serveServiceWorker(
        serviceWorkerSource(
          fs.readFileSync(path.join(clientDir, "sw.js"), "utf8"),
          routeTraitsTable(build.routes),
        ),
      ),
    );
    const serveRootFile = express.static(clientDir, { maxAge: "1h" });
    // The few files at the root (icons, manifest, sw.js, offline page) are
    // known at start-up: a page request goes straight on, without a disk look-up.
    const rootFiles = new Set(
      fs
        .readdirSync(clientDir, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `/${entry.name}`),
    );
    app.use((req, res, next) => {
      if (rootFiles.has(req.path)) serveRootFile(req, res, next);
      else next();
    });
  } else {
    app.use(vite.middlewares);
    build = () =>
      vite.ssrLoadModule(
        "virtual:react-router/server-build",
      ) as Promise<ServerBuild>;
  }

  app.use(
    createAppHandler({
      build,
      mode: isProduction ? "production" : "development",
      getLoadContext: (req, res) => {
        const context = new RouterContextProvider();
        context.set(nonceContext, res.locals.nonce as string);
        context.set(clientAddressContext, clientAddress(req));
        return context;
      },
    }),
  );

  app.use(
    (error: unknown, req: Request, res: Response, _next: NextFunction) => {
      // A client that hung up mid-answer is nobody's error; an answer already
      // under way cannot become a 500 either: the connection is cut.
      if (res.destroyed) return;
      console.error(error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.status(500);
      if (req.path.startsWith(`${API_ROOT}/`))
        res.json({ error: "An unexpected error occurred. Please try again." });
      else
        res
          .type("text/plain")
          .send("An unexpected error occurred. Please try again.");
    },
  );

  const port = portSetting();
  const server = app.listen(port, () => {
    const address = server.address();
    const actualPort =
      typeof address === "object" && address ? address.port : port;
    console.info(`Fairshake listening on http://localhost:${actualPort}`);
  });

  // Keep idle connections longer than the proxy in front (and than clients'
  // pools) so the server is never the one closing a socket a client is about to
  // reuse: that race ends in ECONNRESET or, behind Fly's proxy, a 502.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  collectProcessMetrics();
  const metricsServer = metricsServedHere() ? startMetricsServer() : null;
  stopGracefully({
    server,
    sqlite: engine === "sqlite" ? sqlite : undefined,
    closeDatabase,
    onStop: () => metricsServer?.close(),
  });
}
