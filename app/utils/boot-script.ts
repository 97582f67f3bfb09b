import { onFirstPaintJs } from "./first-paint";

/** Where the web app manifest is (public/manifest.webmanifest). */
export const MANIFEST_HREF = "/manifest.webmanifest";

/**
 * The root's inline script on pages that run JavaScript (its text: React
 * renders it with the page's nonce). It remembers the browser's time zone in
 * a cookie so the server can show and read dates in it (docs/product-rules.md#bets), registers
 * the service worker (public/sw.js: the offline page, the hashed assets,
 * which the hydrated page names to it: useKeepAssetsInServiceWorker, and the
 * signed-in pages kept for reading offline: docs/decisions/1001-offline-reading-of-kept-pages.md) and, on
 * a first visit (stylesheet inline, `<style data-href>`), prefetches the
 * stylesheet for the next page, which the head does not do on pages with
 * scripts: there it competed with the first paint's own requests (docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md). It
 * also links the web app manifest, which the browser fetches as soon as it
 * is linked and the page has loaded (docs/decisions/archive/0842-icon-inline-manifest-after-first-paint.md); the head links it only in a
 * `<noscript>`, for browsers with JavaScript off.
 *
 * All of it waits for two things. The load event, after the document's own
 * requests: the first `Intl.DateTimeFormat()` in a page loads the browser's
 * time zone data, main-thread time measured in docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md, and as a
 * parser-inserted script it ran before anything was painted. And the first paint the browser reports: a small page's
 * load event can fire before its first frame, and the prefetch and the
 * worker's script, and the manifest the browser fetched at that event, then
 * still came before the paint, where Lighthouse's simulation put them on
 * the path to the largest one (/create-bet's cold LCP, docs/decisions/archive/0841-boot-work-after-load-and-first-paint.md,
 * docs/decisions/archive/0842-icon-inline-manifest-after-first-paint.md). A request sent before then goes with the zone the server already
 * assumed, as on any first visit.
 */
export const BOOT_SCRIPT =
  `(function(){var loaded=0,painted=0,done=0;` +
  `function boot(){if(done||!loaded||!painted)return;done=1;` +
  `var c=document.querySelector("style[data-href]");` +
  `if(c){var l=document.createElement("link");l.rel="prefetch";l.as="style";l.href=c.getAttribute("data-href");document.head.appendChild(l)}` +
  `try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;` +
  `if(z&&document.cookie.indexOf("tz="+encodeURIComponent(z))<0)document.cookie="tz="+encodeURIComponent(z)+";path=/;max-age=31536000;samesite=lax"}catch(e){}` +
  `if(!document.querySelector('link[rel="manifest"]')){var m=document.createElement("link");m.rel="manifest";m.href=${JSON.stringify(MANIFEST_HREF)};document.head.appendChild(m)}` +
  `if("serviceWorker"in navigator)navigator.serviceWorker.register("/sw.js").catch(function(){})}` +
  `function paint(){painted=1;boot()}` +
  `addEventListener("load",function(){loaded=1;boot()});` +
  `${onFirstPaintJs("paint")}})();`;
