// The service worker's offline page (public/sw.js), one per language: what
// a person with the worker sees when the network is gone and the page they
// open was never kept, and the words of the banner on a kept one. Its words are the catalogs' `offlinePage` area, in
// all four languages, written into the page once, when the server starts.
// The worker keeps all four at install and shows the one of the language
// the server last answered this person in (the LANGUAGE_HEADER of every
// page answer), else the browser's (docs/product-rules.md#languages).
import crypto from "node:crypto";
import { setupI18n } from "@lingui/core";
import type { Express } from "express";
import { LANGUAGES, type Language } from "~/domain/language";
import { compiledMessages } from "~/framework/catalogs.server";
import type { MessageKey } from "~/locales/keys";
import { escapeHtml } from "~/utils/html";

/** Where the worker finds each language's page (public/sw.js spells it too). */
export const offlinePagePath = (language: Language) =>
  `/offline/${language}.html`;

/**
 * The banner of a page kept for reading, in the page's language, `{time}`
 * left for the worker to fill: the worker reads it from the offline page
 * in place (public/sw.js spells the name too).
 */
export const KEPT_BANNER_META = "fairshake-kept-banner";

/** The offline page in one language, as plain HTML with no script. */
export function offlinePageHtml(language: Language): string {
  const i18n = setupI18n({
    locale: language,
    messages: { [language]: compiledMessages(language) },
  });
  const t = (key: MessageKey, values?: Record<string, string>) =>
    escapeHtml(i18n._(key, values));
  return `<!doctype html>
<html lang="${language}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="theme-color" content="#047857" />
    <meta name="${KEPT_BANNER_META}" content="${t("offlinePage.keptBanner", { time: "{time}" })}" />
    <title>${t("offlinePage.title")}</title>
    <style>
      body { font-family: system-ui, sans-serif; margin: 0; min-height: 100dvh;
        display: grid; place-items: center; background: #f8fafc; color: #0f172a; }
      main { max-width: 22rem; padding: 1.5rem; text-align: center; }
      a { display: inline-block; margin-top: 1rem; padding: 0.75rem 1.25rem;
        border-radius: 0.5rem; background: #047857; color: #fff;
        text-decoration: none; font-weight: 600; }
    </style>
  </head>
  <body>
    <main>
      <h1>${t("offlinePage.heading")}</h1>
      <p>${t("offlinePage.text")}</p>
      <a href="/">${t("offlinePage.tryAgain")}</a>
    </main>
  </body>
</html>
`;
}

/** Answers each language's offline page, re-checked on every fetch (`no-cache`). */
export function serveOfflinePages(app: Express) {
  for (const language of LANGUAGES) {
    const html = offlinePageHtml(language);
    const etag = `"${crypto.createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`;
    app.get(offlinePagePath(language), (req, res) => {
      res.set({
        "Content-Type": "text/html; charset=utf-8",
        "Content-Language": language,
        "Cache-Control": "no-cache",
        ETag: etag,
      });
      if (req.get("If-None-Match") === etag) res.status(304).end();
      else res.send(req.method === "HEAD" ? undefined : html);
    });
  }
}
