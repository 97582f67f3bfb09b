import { createContext, useContext } from "react";

// The app's one stylesheet goes into the document itself in production: a
// first visit then paints from the HTML alone, with no render-blocking request
// for the stylesheet to wait behind (or share a slow link with) the scripts
// (docs/decisions/0800). entry.server.tsx reads the built file once and
// provides its text here; the browser keeps the server's <style> through
// hydration (the client renders it empty and never changes it).
const InlineCssContext = createContext<string | null>(null);
export const InlineCssProvider = InlineCssContext.Provider;

export function AppStylesheet({ href }: { href: string }) {
  const css = useContext(InlineCssContext);
  if (import.meta.env.DEV || (import.meta.env.SSR && css === null))
    return <link rel="stylesheet" href={href} />;
  return (
    <style
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: css ?? "" }}
    />
  );
}
