// The page's messages by the name of their file (/messages/<language>/
// <areas>.<hash>.json; docs/decisions/1165-messages-in-a-file-of-their-own.md).
// The root's data names the file; the words are looked up here. On the
// server the root's loader puts them here as it names them. In the browser
// they are fetched before the first hydration (app/entry.client.tsx) and
// before a navigation renders a page with other areas (the root's
// clientLoader), and kept for the life of the tab: the same name always
// holds the same words.
import type { Messages } from "@lingui/core";

const known = new Map<string, Messages>();
const loading = new Map<string, Promise<Messages>>();

/** The words a file holds, once known here. */
export function messagesAt(href: string): Messages | undefined {
  return known.get(href);
}

/** Keeps the words of a file (the server, as its loader names it). */
export function keepMessages(href: string, messages: Messages) {
  known.set(href, messages);
}

/**
 * Fetches a file's words once, however many ask at the same time. A
 * failure (offline with nothing kept) rejects and is forgotten, so the
 * next ask tries again.
 */
export function loadMessages(href: string): Promise<Messages> {
  const have = known.get(href);
  if (have) return Promise.resolve(have);
  let pending = loading.get(href);
  if (!pending) {
    pending = fetch(href, { credentials: "same-origin" })
      .then((response) => {
        if (!response.ok) throw new Error(`${href}: ${response.status}`);
        return response.json() as Promise<Messages>;
      })
      .then((messages) => {
        known.set(href, messages);
        return messages;
      })
      .finally(() => loading.delete(href));
    loading.set(href, pending);
  }
  return pending;
}
