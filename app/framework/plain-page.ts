// The few answers the server gives before React Router runs (a body too
// large, too many attempts, an unexpected error) as a small HTML page that
// needs no JavaScript and no stylesheet. Every text is escaped.
import type { Response as ExpressResponse } from "express";
import { escapeHtml } from "~/utils/html";

export function sendPlainPage(
  res: ExpressResponse,
  page: {
    title: string;
    message: string;
    back?: { href: string; label: string };
  },
) {
  const back = page.back
    ? `<p><a href="${escapeHtml(page.back.href)}">${escapeHtml(page.back.label)}</a></p>`
    : "";
  res
    .type("html")
    .send(
      `<!doctype html><meta charset=utf-8><meta name=viewport content="width=device-width"><title>${escapeHtml(page.title)}</title><main style="font-family:system-ui;padding:2rem"><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p>${back}</main>`,
    );
}
