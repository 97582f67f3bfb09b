import { onFirstPaintJs } from "~/utils/first-paint";

/**
 * React hoists <Scripts>' `<link rel="modulepreload">` tags to the top of the
 * head, ahead of everything the first paint needs and at the priority of a
 * blocking script: on a slow link all of the page's scripts then compete
 * with the document and its images, and when they win the race they are
 * evaluated and hydrate before the first paint, which waits for them
 * (measured in docs/decisions/archive/0800-first-visit-paints-from-the-html.md).
 * This leaves them out of the served head: the scripts are then found where
 * <Scripts> puts its module script, at the end of the body, after the content
 * is in, and load through their imports (React adds the preload tags again when
 * it hydrates, for modules already loaded). Nothing after `</head>` is
 * touched. It works on the whole document (entry.server.tsx renders each page
 * whole before sending it), so a tag is never split across two chunks.
 */
export function withoutScriptPreloads(html: string): string {
  const end = html.indexOf("</head>");
  if (end === -1) return html;
  return (
    html.slice(0, end).replace(/<link rel="modulepreload"[^>]*>/g, "") +
    html.slice(end)
  );
}

/**
 * <Scripts>' module script (the route modules' imports, then hydration) is
 * started after the first paint instead of by the parser. As an `async`
 * module it ran as soon as its imports arrived, and on a fast link or a busy
 * phone that was before the frame that paints the content: the largest paint
 * then came after all of the scripts had been fetched, evaluated and hydrated,
 * and Lighthouse (whose simulation puts on the path to the largest paint
 * every script that ran before it did) counted all of them against a slow
 * 4G link: /create-bet's and /bet/{id}'s scores swung from run to run
 * (measured in docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md, docs/decisions/archive/0831-scripts-start-at-the-reported-first-paint.md). A small classic script in its place
 * inserts the same module, with the same nonce, when the browser reports the
 * page's first contentful paint (onFirstPaintJs: at once where no paint will
 * be reported, after PAINT_WAIT_MS at the latest, so a page always hydrates).
 * Without JavaScript nothing changes; React hydrates over the placeholder as
 * over the module script (same tag, and it does not compare a script's text).
 */

export function withModuleAfterFirstPaint(html: string): string {
  const end = html.indexOf("</head>");
  if (end === -1) return html;
  const body = html.slice(end);
  const match =
    /<script nonce="([^"]*)" type="module" async="">([\s\S]*?)<\/script>/.exec(
      body,
    );
  if (!match) return html;
  const [tag, nonce, code] = match;
  // The module's text as a JavaScript string inside an HTML <script>: no
  // `<` survives, so neither `</script>` nor `<!--` can end it early.
  const text = JSON.stringify(code).replace(/</g, "\\u003c");
  // With the module, the page's messages start on their way (the module
  // awaits them before hydrating: app/entry.client.tsx), not a round trip
  // after it; a preload the module's fetch() then finds.
  const starter =
    `<script nonce="${nonce}">(function(){var d=0;function go(){if(d)return;d=1;` +
    `var m=document.querySelector('meta[name="page-messages"]');if(m){var l=document.createElement("link");` +
    `l.rel="preload";l.as="fetch";l.crossOrigin="anonymous";l.href=m.content;document.head.appendChild(l)}` +
    `var s=document.createElement("script");s.type="module";s.nonce=${JSON.stringify(nonce)};` +
    `s.textContent=${text};document.body.appendChild(s)}` +
    `${onFirstPaintJs("go")}})()</script>`;
  return (
    html.slice(0, end) +
    body.slice(0, match.index) +
    starter +
    body.slice(match.index + tag.length)
  );
}
