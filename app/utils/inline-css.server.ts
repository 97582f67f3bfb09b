import fs from "node:fs";
import path from "node:path";

const cache = new Map<string, string | null>();

/** The built stylesheet's text (production only; null when it is not on disk). */
export function readBuiltStylesheet(href: string): string | null {
  if (!cache.has(href)) {
    let css: string | null = null;
    if (process.env.NODE_ENV === "production" && href.startsWith("/assets/")) {
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
