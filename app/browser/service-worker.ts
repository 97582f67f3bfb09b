import { useEffect } from "react";

/**
 * Tells the service worker (public/sw.js) which hashed assets this page
 * loaded, so it keeps them for repeat visits without downloading them again.
 *
 * It runs once the page has hydrated, because only then are all of its
 * scripts in: they start after the first paint (docs/decisions/archive/0831-scripts-start-at-the-reported-first-paint.md), which
 * can be after the load event, where this message used to be sent, and a
 * list taken there missed the late ones (withdrawn in docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md). `ready` waits
 * for the worker the boot script registers at the load event, in whichever
 * order the two come.
 */
export function useKeepAssetsInServiceWorker() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready
      .then((registration) =>
        registration.active?.postMessage({
          keepAssets: performance
            .getEntriesByType("resource")
            .map((entry) => entry.name)
            .filter((url) => new URL(url).pathname.startsWith("/assets/")),
        }),
      )
      .catch(() => {});
  }, []);
}
