// Hooks for background work to report what Prometheus scrapes
// (docs/operations.md#logs-and-metrics). Each metric is created on first use
// on prom-client's registry, the one server/metrics.ts serves, and looked up
// there after that. The scheduler and the outbox call these; nothing else is
// needed.
import { Counter, Gauge, register } from "prom-client";

function gauge(name: string, help: string, labelNames: string[] = []) {
  return (
    (register.getSingleMetric(name) as Gauge | undefined) ??
    // Several workers report the same database-wide figure: take the
    // largest, never the sum.
    new Gauge({ name, help, labelNames, aggregator: "max" })
  );
}

function counter(name: string, help: string, labelNames: string[] = []) {
  return (
    (register.getSingleMetric(name) as Counter | undefined) ??
    new Counter({ name, help, labelNames })
  );
}

/** Events written to the outbox and not yet delivered (all channels). */
export function setOutboxDepth(depth: number, channel = "all") {
  gauge("fairshake_outbox_depth", "Outbox events waiting for delivery", [
    "channel",
  ]).set({ channel }, depth);
}

/** One delivery attempt failed (it will be retried or given up). */
export function countOutboxFailure(channel: string) {
  counter(
    "fairshake_outbox_failures_total",
    "Outbox delivery attempts that failed",
    ["channel"],
  ).inc({ channel });
}

/** How late the sweep ran: now minus the moment its oldest due job was due. */
export function setSweepLag(seconds: number) {
  gauge(
    "fairshake_sweep_lag_seconds",
    "How long the oldest due background job waited before the sweep ran it",
  ).set(seconds);
}

/** The sweep finished a pass (with `ok` false if a job in it threw). */
export function countSweep(ok: boolean) {
  counter("fairshake_sweeps_total", "Background sweep passes", ["result"]).inc({
    result: ok ? "ok" : "failed",
  });
}
