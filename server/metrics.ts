// Prometheus metrics on their own port, METRICS_PORT (default 9091), bound
// to a private address (metricsHost): never on the public port, which Fly's
// proxy exposes, and never open to whoever can reach the machine.
// One process serves its own registry; with several workers the primary
// serves the sum of the workers' registries (prom-client's aggregator).
import type { RequestHandler } from "express";
import cluster from "node:cluster";
import http from "node:http";
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Histogram,
  register,
} from "prom-client";
import {
  metricsHostSetting,
  metricsPortSetting,
} from "~/utils/env-settings.server";
import { logger } from "./logging";
import { requestRoutePattern } from "~/framework/route-pattern";

/**
 * Where the metrics port listens: only where the scraper reaches it. On Fly
 * that is the machine's private network address (`fly-local-6pn`, which
 * Fly's Prometheus scrapes through `[metrics]` in fly.toml; the public proxy
 * forwards only the app's port); elsewhere loopback, for a scraper on the
 * same host. METRICS_HOST overrides (`0.0.0.0` for every address).
 */
export function metricsHost(): string {
  return metricsHostSetting();
}

/** METRICS_PORT, null when "off". */
export function metricsPort(): number | null {
  return metricsPortSetting();
}

let defaultsOn = false;
/**
 * Process metrics, event-loop lag among them; once per process. A cluster
 * worker also starts answering the primary's requests for its metrics
 * (prom-client listens for them once an aggregator exists in the worker).
 */
export function collectProcessMetrics() {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ eventLoopMonitoringPrecision: 10 });
  if (cluster.isWorker) new AggregatorRegistry();
}

const requestDuration =
  (register.getSingleMetric("http_request_duration_seconds") as
    Histogram | undefined) ??
  new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer a request, by route pattern and status",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });

export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const end = requestDuration.startTimer();
    res.once("finish", () =>
      end({
        method: req.method,
        route: requestRoutePattern(req),
        status: String(res.statusCode),
      }),
    );
    next();
  };
}

/**
 * Serves GET /metrics on METRICS_PORT. A port already taken is logged and
 * skipped: metrics must never stop the app from serving.
 */
export function startMetricsServer(
  options: { aggregate?: boolean } = {},
): http.Server | null {
  const port = metricsPort();
  if (port === null) return null;
  const aggregator = options.aggregate ? new AggregatorRegistry() : null;
  const server = http.createServer(async (req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = aggregator
        ? await aggregator.clusterMetrics()
        : await register.metrics();
      res.writeHead(200, { "Content-Type": register.contentType }).end(body);
    } catch (error) {
      logger.error({ err: error }, "metrics collection failed");
      res.writeHead(500).end();
    }
  });
  server.on("error", (error: NodeJS.ErrnoException) =>
    logger.warn(
      { code: error.code, port },
      "metrics server could not listen; serving without metrics",
    ),
  );
  const host = metricsHost();
  server.listen(port, host, () => {
    const address = server.address();
    const actual = typeof address === "object" && address ? address.port : port;
    const shown = host.includes(":") ? `[${host}]` : host;
    logger.info(`metrics on http://${shown}:${actual}/metrics`);
  });
  server.unref();
  return server;
}

/** In a single process the server serves metrics; a cluster worker leaves it to the primary. */
export function metricsServedHere() {
  return !cluster.isWorker;
}
