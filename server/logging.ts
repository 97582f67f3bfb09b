// One JSON line per request (docs/operations.md#logs-and-metrics), with pino: request id (also
// sent as X-Request-Id), method, route pattern, status and duration. Nothing
// else of the request is logged — not the raw path (it can carry codes and
// tokens), not headers (cookies), not bodies (passwords, card numbers,
// email addresses) — and the redaction list catches them should a later log
// call pass one in.
import type { RequestHandler } from "express";
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pino } from "pino";
import { logLevel } from "~/utils/env-settings.server";
import { requestRoutePattern } from "~/framework/route-pattern";

const SECRET_KEYS = [
  "password",
  "currentPassword",
  "newPassword",
  "token",
  "cookie",
  "cardNumber",
  "cvc",
  "email",
  "authorization",
  "clientSecret",
];

// What every line carries: the level, the process, an ISO time.
const LINE_OPTIONS = {
  level: logLevel(),
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
};

/**
 * Standard output as pino writes it by default (asynchronously), except
 * that `minLength: 1` makes `flush(cb)` wait for the writes in flight:
 * with 0, sonic-boom calls back at once (flushLogs needs the wait). Every
 * line is longer than a byte, so none waits to be written.
 */
const standardOutput = () =>
  pino.destination({ dest: 1, sync: false, minLength: 1 });

export const logger = pino(
  {
    ...LINE_OPTIONS,
    redact: {
      paths: [
        "req.headers",
        "res.headers",
        ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`]),
      ],
      censor: "[redacted]",
    },
  },
  standardOutput(),
);

// Every logger this process writes with, so that a stop can write out what
// they still hold (flushLogs).
const loggers = new Set<pino.Logger>([logger]);

/**
 * Writes out what the loggers still hold, within `withinMs`; called before
 * the process exits. pino writes asynchronously and, at exit, flushes what
 * is left synchronously, and that synchronous flush (sonic-boom 4) retries
 * a write that failed for any reason forever: with stdout's reader gone
 * (EPIPE), `process.exit` never returned and a stopped server lived on,
 * still listening. Flushed asynchronously first, the buffers are either
 * empty by then or a write has met the EPIPE, after which pino writes
 * nothing more (and its exit flush does nothing).
 */
export async function flushLogs(withinMs = 2_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(
      [...loggers].map(
        (log) => new Promise<void>((resolve) => log.flush(() => resolve())),
      ),
    ),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs))),
  ]);
  clearTimeout(timer);
}

// An id from the caller (Fly's proxy, a load balancer, a test) is kept when
// it is short and plain, so one request can be followed across services.
const INCOMING_ID = /^[A-Za-z0-9._:-]{6,64}$/;

function requestId(req: IncomingMessage, res: ServerResponse) {
  const incoming = req.headers["x-request-id"] ?? req.headers["fly-request-id"];
  const id =
    typeof incoming === "string" && INCOMING_ID.test(incoming)
      ? incoming
      : crypto.randomUUID();
  res.setHeader("X-Request-Id", id);
  return id;
}

// The request line has a fixed shape built here from safe values (the
// route's pattern, never the path; an id that passed INCOMING_ID or a UUID),
// so it is written by a logger without the redaction pass, which walked
// every wildcard path on every line. pino-http did the same job with two
// child loggers and their serializers per request (their cost measured in
// docs/decisions/archive/0813-handlers-by-side-lean-request-log.md). Other log lines keep `logger` and its redaction.
/** One line when the answer is finished (or the connection dropped first). */
export function requestLogging(
  destination: pino.DestinationStream = standardOutput(),
): RequestHandler {
  const requestLine = pino(LINE_OPTIONS, destination);
  loggers.add(requestLine);
  return (req, res, next) => {
    const started = Date.now();
    const id = requestId(req, res);
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      res.off("finish", done);
      res.off("close", done);
      const status = res.statusCode;
      // Safe values only: this line is not redacted (docs/decisions/archive/0813-handlers-by-side-lean-request-log.md).
      const line = {
        requestId: id,
        req: { method: req.method, route: requestRoutePattern(req) },
        res: { status },
        durationMs: Date.now() - started,
      };
      if (status >= 500)
        requestLine.info(
          { ...line, err: { message: `failed with status code ${status}` } },
          `request failed (${status})`,
        );
      else
        requestLine.info(
          line,
          res.writableFinished ? "request completed" : "request aborted",
        );
    };
    res.on("finish", done);
    res.on("close", done);
    next();
  };
}
