/**
 * React hoists <Scripts>' `<link rel="modulepreload">` tags to the top of the
 * head, ahead of everything the first paint needs and at the priority of a
 * blocking script: on a slow link 125 KB of scripts then compete with the
 * document and its images, and when they win the race they are evaluated and
 * hydrate before the first paint, which waits for them (docs/decisions/0800).
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
