import { useEffect } from "react";
import { whenIdle } from "~/utils/idle";

// Hashed build files, and a page's messages, named by their content alike.
const isAsset = (url: string) =>
  /^\/(assets|messages)\//.test(new URL(url).pathname);

/**
 * Tells the service worker (public/sw.js) which hashed assets this page
 * loaded, so it keeps them for repeat visits without downloading them again.
 *
 * It runs once the page has hydrated, because only then are all of its
 * scripts in: they start after the first paint (docs/decisions/archive/0831-scripts-start-at-the-reported-first-paint.md), which
 * can be after the load event, where this message used to be sent, and a
 * list taken there missed the late ones (withdrawn in docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md). `ready` waits
 * for the worker the boot script registers at the load event, in whichever
 * order the two come. It starts when the browser is next idle, after the
 * hydration's own tasks, and names the chunks loaded after it too (the
 * toast's, loaded when idle: docs/decisions/archive/1055-main-thread-at-the-floor.md).
 */
export function useKeepAssetsInServiceWorker() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    let observer: PerformanceObserver | undefined;
    const cancel = whenIdle(() => {
      const keep = (urls: string[]) =>
        navigator.serviceWorker.ready
          .then((registration) =>
            registration.active?.postMessage({
              keepAssets: urls.filter(isAsset),
            }),
          )
          .catch(() => {});
      void keep(
        performance.getEntriesByType("resource").map((entry) => entry.name),
      );
      if (typeof PerformanceObserver === "undefined") return;
      observer = new PerformanceObserver((list) => {
        const urls = list.getEntries().map((entry) => entry.name);
        if (urls.some(isAsset)) void keep(urls);
      });
      observer.observe({ type: "resource" });
    });
    return () => {
      cancel();
      observer?.disconnect();
    };
  }, []);
}
