// Graceful stop (docs/operations.md#graceful-stop): on SIGTERM or SIGINT stop accepting,
// let every request already accepted finish (up to STOP_GRACE_MS), stop
// background work (hooks in ~/utils/stop-hooks.server), then checkpoint the
// WAL into the database file, close it and exit 0.
import type Database from "better-sqlite3";
import type { NextFunction, Request, Response } from "express";
import type { Server } from "node:http";
import net from "node:net";
import { runStopHooks, runStopStartingHooks } from "~/utils/stop-hooks.server";
import { stopGraceMs, underLitestream } from "~/utils/env-settings.server";
import { flushLogs, logger } from "./logging";

export const STOP_GRACE_MS = stopGraceMs();
// How long the server must have had nothing to answer before it closes
// the kept-alive sockets still open.
const IDLE_LINGER_MS = 1_000;

let stopping = false;
let answering = 0;

/**
 * While stopping, every answer that has not started yet says
 * `Connection: close`, so a kept-alive client opens a new connection (and is
 * refused) instead of sending its next request on a socket about to close.
 */
export function closeConnectionsWhenStopping(
  _req: Request,
  res: Response,
  next: NextFunction,
) {
  answering += 1;
  res.once("close", () => (answering -= 1));
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (stopping && !this.headersSent) this.setHeader("Connection", "close");
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
  next();
}

type StopOptions = {
  server: Server;
  /** SQLite's write connection (checkpointed on stop); absent on PostgreSQL. */
  sqlite?: Database.Database;
  /** Closes the database's connections. */
  closeDatabase: () => Promise<void>;
  /** Other things to close first (the metrics server, say). */
  onStop?: () => void;
};

export function stopGracefully({
  server,
  sqlite,
  closeDatabase,
  onStop,
}: StopOptions) {
  let exitCode = 0;
  // Every open connection, to find the ones that never sent a byte.
  const connections = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });
  const stop = (signal: NodeJS.Signals | "unexpected error") => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    logger.info({ signal }, "stopping: finishing requests in flight");
    onStop?.();
    // Answers that never end by themselves (event streams) end now.
    runStopStartingHooks();
    // Stop listening. (http.Server#close would also drop every idle
    // kept-alive socket at once, resetting requests a client is sending on
    // one right now; net.Server#close leaves them be.) A client may still
    // send on a socket it holds open: that request is answered, with
    // Connection: close. Idle sockets are closed only once nothing has been
    // answered for IDLE_LINGER_MS: a busy (or starved) server may not have
    // read the requests already waiting on them.
    net.Server.prototype.close.call(
      server,
      () => void finish("all requests answered"),
    );
    let quietSince = Date.now();
    const idle = setInterval(() => {
      if (answering > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= IDLE_LINGER_MS) {
        server.closeIdleConnections();
        // A connection that has sent nothing at all (a browser's
        // speculative pre-connect, a client that connected and thought
        // better of it) is not "idle" to Node: it would hold the stop for
        // the whole grace period. After a quiet second with the event loop
        // turning, anything it had sent would have been read.
        for (const socket of connections)
          if (socket.bytesRead === 0) socket.destroy();
      }
    }, 50);
    idle.unref();
    setTimeout(() => {
      server.closeAllConnections();
      void finish(`grace period of ${STOP_GRACE_MS} ms over`);
    }, STOP_GRACE_MS).unref();

    let finished = false;
    async function finish(reason: string) {
      if (finished) return;
      finished = true;
      clearInterval(idle);
      // Background work (scheduler, outbox) stops next, within what is
      // left of the grace period (at least a second).
      const left = Math.max(1_000, STOP_GRACE_MS - (Date.now() - started));
      const hooks = await runStopHooks(left);
      if (!hooks.finished || hooks.failed)
        logger.warn(hooks, "background work did not stop cleanly");
      try {
        // Under Litestream the replicator owns checkpoints (a truncating one
        // would force it to start a new generation): a passive one suffices.
        const mode = underLitestream() ? "PASSIVE" : "TRUNCATE";
        sqlite?.pragma(`wal_checkpoint(${mode})`);
        // Within what is left (at least a second): a pool waits for every
        // connection in use, and one may hang on a database that is gone
        // (a primary lost mid-failover).
        const closeLeft = Math.max(
          1_000,
          STOP_GRACE_MS - (Date.now() - started),
        );
        let timer: NodeJS.Timeout | undefined;
        const closed = await Promise.race([
          closeDatabase().then(() => true),
          new Promise<false>((resolve) => {
            timer = setTimeout(() => resolve(false), closeLeft);
          }),
        ]).finally(() => clearTimeout(timer));
        if (!closed) logger.warn("the database did not close in time");
      } catch (error) {
        logger.error({ err: error }, "checkpoint on stop failed");
      }
      logger.info({ reason, ms: Date.now() - started }, "stopped");
      await flushLogs();
      process.exit(exitCode);
    }
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // The last resort: an error nothing caught leaves the process in a state
  // nobody knows, so it is not passed over. It is logged, the requests in
  // flight are finished, and the process stops with a failure code (a
  // worker is then replaced by the primary, a machine restarted by Fly).
  const unexpected = (kind: string) => (error: unknown) => {
    logger.fatal({ err: error, kind }, `${kind}: stopping`);
    exitCode = 1;
    stop("unexpected error");
  };
  process.on("uncaughtException", unexpected("uncaught exception"));
  process.on("unhandledRejection", unexpected("unhandled rejection"));
}
