import { createContext, useContext } from "react";

// The app's one stylesheet. On a first visit it goes into the document itself
// (production only): the first paint then needs the HTML alone, with no
// render-blocking request to wait behind the script preloads on a slow link;
// the file is prefetched after that, for the next visits, which link it from
// the cache (docs/decisions/0800). entry.server.tsx reads the built file once
// and provides its text here; the browser keeps the server's <style> through
// hydration (the client renders it empty and never changes it).
const InlineCssContext = createContext<string | null>(null);
export const InlineCssProvider = InlineCssContext.Provider;

// What the server chose for this page is kept for the page's life: a later
// root revalidation must not swap an inline stylesheet for a link (a flash).
let chosenOnClient: boolean | undefined;

export function AppStylesheet({
  href,
  inline,
}: {
  href: string;
  inline: boolean;
}) {
  const css = useContext(InlineCssContext);
  if (!import.meta.env.SSR) {
    chosenOnClient ??= inline;
    inline = chosenOnClient;
  }
  if (import.meta.env.DEV || !inline || (import.meta.env.SSR && css === null))
    return <link rel="stylesheet" href={href} />;
  return (
    <>
      <style
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: css ?? "" }}
      />
      <link rel="prefetch" href={href} as="style" />
    </>
  );
}
