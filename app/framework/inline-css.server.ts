import fs from "node:fs";
import path from "node:path";
import { isProduction } from "~/utils/env.server";

const cache = new Map<string, string | null>();

/** The built stylesheet's text (production only; null when it is not on disk). */
export function readBuiltStylesheet(href: string): string | null {
  if (!cache.has(href)) {
    let css: string | null = null;
    if (isProduction && href.startsWith("/assets/")) {
      try {
        css = fs.readFileSync(path.resolve("build/client", `.${href}`), "utf8");
      } catch {
        css = null;
      }
    }
    cache.set(href, css);
  }
  return cache.get(href)!;
}

const CSS_COOKIE = "fs_css";

/**
 * Whether this document carries the stylesheet inline (a first visit: no
 * request for the first paint to wait on) or links it (the browser fetched it
 * on an earlier visit, prefetched after the first paint, and holds it under
 * its hashed, immutable name). The cookie names the stylesheet version the
 * browser was given; it is not a secret, and a wrong one only means a
 * linked stylesheet (docs/decisions/archive/0800-first-visit-paints-from-the-html.md).
 */
export function stylesheetDelivery(
  request: Request,
  href: string,
): { inline: boolean; setCookie: string | null } {
  if (readBuiltStylesheet(href) === null)
    return { inline: false, setCookie: null };
  const version = /-([\w-]+)\.css$/.exec(href)?.[1] ?? href;
  const match = new RegExp(`(?:^|;\\s*)${CSS_COOKIE}=([^;]*)`).exec(
    request.headers.get("Cookie") ?? "",
  );
  if (match?.[1] === version) return { inline: false, setCookie: null };
  return {
    inline: true,
    setCookie: `${CSS_COOKIE}=${version}; Path=/; Max-Age=2592000; SameSite=Lax${isProduction ? "; Secure" : ""}`,
  };
}
