// Web Push (docs/product-rules.md#notifications) through `web-push`: VAPID-signed, aes128gcm-encrypted
// payloads `{title, body, url}` with a TTL. A subscription's endpoint must be
// https on a known push service, so the server never posts to an address a
// user chose.
import fs from "node:fs";
import path from "node:path";
import webpush from "web-push";
import { isDemoMode, isProduction } from "~/utils/env.server";
import {
  databasePath,
  pushEndpointHosts,
  vapidEnvironment,
} from "~/utils/env-settings.server";

export type PushPayload = { title: string; body: string; url: string };
export type PushTarget = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
};

/** A day: a reminder older than that is not worth showing. */
const PUSH_TTL_S = 24 * 60 * 60;

/** The big browsers' push services; `.x` matches any host ending in `.x`. */
const DEFAULT_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "android.googleapis.com",
  "updates.push.services.mozilla.com",
  "web.push.apple.com",
  ".push.apple.com",
  ".notify.windows.com",
];

function allowedHosts(): string[] {
  return pushEndpointHosts() ?? DEFAULT_PUSH_HOSTS;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether the server may post to this endpoint (docs/product-rules.md#notifications). */
export function isAllowedPushEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  const listed = allowedHosts().some((h) =>
    h.startsWith(".") ? host.endsWith(h) && host.length > h.length : host === h,
  );
  if (!listed) return false;
  // Push services answer on https's own port; any other port on a listed
  // host is not the push service. Plain http, on any port, only to a
  // loopback address someone put on the list (tests).
  if (url.protocol === "https:") return url.port === "";
  return url.protocol === "http:" && LOOPBACK.has(host);
}

type VapidKeys = { publicKey: string; privateKey: string; subject: string };
let vapid: VapidKeys | null | undefined;

/**
 * VAPID_* from the environment; in demo mode and development, generated
 * once and kept beside the database like the session secret. In production
 * without them, push is off.
 */
export function vapidKeys(): VapidKeys | null {
  if (vapid !== undefined) return vapid;
  const { subject, publicKey, privateKey } = vapidEnvironment();
  if (publicKey && privateKey) {
    vapid = { publicKey, privateKey, subject };
  } else if (isDemoMode || !isProduction) {
    const file = path.join(
      path.dirname(path.resolve(databasePath())),
      "vapid-keys.json",
    );
    try {
      vapid = { ...JSON.parse(fs.readFileSync(file, "utf8")), subject };
    } catch {
      const keys = webpush.generateVAPIDKeys();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
      vapid = { ...keys, subject };
    }
  } else {
    vapid = null;
  }
  return vapid ?? null;
}

export type PushOutcome = "sent" | "gone";

/** Sends one notification. 'gone': the service says the subscription ended (404/410). */
export async function sendPush(
  target: PushTarget,
  payload: PushPayload,
): Promise<PushOutcome> {
  const keys = vapidKeys();
  if (!keys) throw new Error("Web Push is not configured (VAPID_* keys)");
  if (!isAllowedPushEndpoint(target.endpoint))
    throw new Error("push endpoint not allowed");
  // web-push signs (VAPID) and encrypts (aes128gcm); the request itself is
  // ours: no redirects followed (the endpoint was checked, its redirect was
  // not), a short timeout, and plain http allowed only to a listed loopback.
  const request = webpush.generateRequestDetails(
    target,
    JSON.stringify(payload),
    {
      TTL: PUSH_TTL_S,
      contentEncoding: "aes128gcm",
      vapidDetails: {
        subject: keys.subject,
        publicKey: keys.publicKey,
        privateKey: keys.privateKey,
      },
    },
  );
  const res = await fetch(request.endpoint, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body ? new Uint8Array(request.body) : undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  await res.body?.cancel();
  if (res.status === 404 || res.status === 410) return "gone";
  if (res.status < 200 || res.status >= 300)
    throw new Error(`push service answered ${res.status}`);
  return "sent";
}
