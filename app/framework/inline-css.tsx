import { createContext, useContext } from "react";

// The app's one stylesheet. On a first visit it goes into the document itself
// (production only): the first paint then needs the HTML alone, with no
// render-blocking request to wait behind the script preloads on a slow link;
// the file is prefetched after that, for the next visits, which link it from
// the cache (docs/decisions/archive/0800-first-visit-paints-from-the-html.md). entry.server.tsx reads the built file once
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
  prefetchOnLoad = false,
}: {
  href: string;
  inline: boolean;
  /**
   * A page that runs scripts fetches the file for next time only after its
   * load event and its first paint (the root's boot script reads
   * `data-href`): a prefetch in the head started with the document and took
   * a share of a slow link from what the first paint waits for, such as the
   * bet page's share preview (docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md, docs/decisions/archive/0841-boot-work-after-load-and-first-paint.md). Pages without
   * JavaScript keep the tag, and a browser with JavaScript off finds it in a
   * <noscript>.
   */
  prefetchOnLoad?: boolean;
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
        data-href={prefetchOnLoad ? href : undefined}
        dangerouslySetInnerHTML={{ __html: css ?? "" }}
      />
      {prefetchOnLoad ? (
        // A browser with JavaScript off still prefetches it here.
        <noscript>
          <link rel="prefetch" href={href} as="style" />
        </noscript>
      ) : (
        <link rel="prefetch" href={href} as="style" />
      )}
    </>
  );
}
