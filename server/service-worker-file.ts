// The service worker's file (public/sw.js) as the server answers it: the
// routes' own word on which posts sign out and which pages are kept for
// reading (app/framework/route-traits.ts) written into it, once, when the
// server starts. The worker cannot import the app's modules, and a list of
// its own would be one more place a new route must remember.
import crypto from "node:crypto";
import type { Request, Response } from "express";
import type { BrowserRouteTraits } from "~/domain/route-traits";

const PLACEHOLDER = /\/\*route-traits\*\/ \{[^}]*\}/;

/** The worker's source with the routes' table in place of its empty one. */
export function serviceWorkerSource(
  source: string,
  table: Pick<BrowserRouteTraits, "signOut" | "keptForReading">,
): string {
  if (!PLACEHOLDER.test(source))
    throw new Error("public/sw.js has no /*route-traits*/ table to fill");
  const filled = JSON.stringify({
    signOut: table.signOut,
    keptForReading: table.keptForReading,
  });
  return source.replace(PLACEHOLDER, () => filled);
}

/** Answers the worker's file, re-checked on every visit (`no-cache`) so it updates. */
export function serveServiceWorker(source: string) {
  const etag = `"${crypto.createHash("sha256").update(source).digest("base64url").slice(0, 27)}"`;
  return (req: Request, res: Response) => {
    res.set({
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      ETag: etag,
    });
    if (req.get("If-None-Match") === etag) {
      res.status(304).end();
      return;
    }
    res.send(req.method === "HEAD" ? undefined : source);
  };
}
