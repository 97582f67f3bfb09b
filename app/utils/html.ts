// Escaping text for the few answers written as HTML strings rather than
// rendered by React (plain server pages, mail, the unsubscribe page).
const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
