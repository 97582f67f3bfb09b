// One JSON line per request (DESIGN ruling 34), with pino: request id (also
// sent as X-Request-Id), method, route pattern, status and duration. Nothing
// else of the request is logged — not the raw path (it can carry codes and
// tokens), not headers (cookies), not bodies (passwords, card numbers,
// email addresses) — and the redaction list catches them should a later log
// call pass one in.
import type { RequestHandler } from "express";
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pino } from "pino";
import { pinoHttp } from "pino-http";
import { requestRoutePattern } from "./route-pattern";

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

export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: {
    paths: [
      "req.headers",
      "res.headers",
      ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`]),
    ],
    censor: "[redacted]",
  },
});

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

export function requestLogging(): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: requestId,
    customAttributeKeys: { reqId: "requestId", responseTime: "durationMs" },
    serializers: {
      req: (req: { raw: IncomingMessage; method: string }) => ({
        method: req.method,
        route: requestRoutePattern(req.raw),
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: pino.stdSerializers.err,
    },
    quietReqLogger: true,
    customSuccessMessage: (_req, res) =>
      res.writableFinished ? "request completed" : "request aborted",
    customErrorMessage: (_req, res) => `request failed (${res.statusCode})`,
  }) as unknown as RequestHandler;
}
