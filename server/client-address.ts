// The visitor's address, the key of every per-address limit. A proxy header
// is believed only where the deployment says a proxy sets it: on Fly (its
// proxy sets Fly-Client-IP and replaces any value a client sent), or where
// TRUST_PROXY names the header. Anywhere else a client could send a new value
// per request and have no limit at all, so the socket address is used.
import type { Request } from "express";
import { trustedProxyHeader } from "~/utils/env.server";

const proxyHeader = trustedProxyHeader();

export function clientAddress(req: Request): string {
  const forwarded = proxyHeader ? req.get(proxyHeader)?.trim() : undefined;
  if (forwarded && forwarded.length < 64) return forwarded;
  return req.socket.remoteAddress ?? "unknown";
}
