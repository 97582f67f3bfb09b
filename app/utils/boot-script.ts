import { BROWSER_TIME_ZONE_JS } from "./browser-time-zone";
import { onFirstPaintJs } from "./first-paint";
import { whenIdleJs } from "./idle";

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
 * requests. And the first paint the browser reports: a small page's
 * load event can fire before its first frame, and the prefetch and the
 * worker's script, and the manifest the browser fetched at that event, then
 * still came before the paint, where Lighthouse's simulation put them on
 * the path to the largest one (/create-bet's cold LCP, docs/decisions/archive/0841-boot-work-after-load-and-first-paint.md,
 * docs/decisions/archive/0842-icon-inline-manifest-after-first-paint.md). A request sent before then goes with the zone the server already
 * assumed, as on any first visit.
 *
 * Then each of the four is a task of its own when the browser is idle
 * (whenIdle, at most IDLE_WAIT_MS later): together, in the task that
 * reported the paint, they were the longest task of the load, most of it
 * the time zone's first `Intl.DateTimeFormat()`, which loads the browser's
 * locale data. Temporal answers the zone without it, and the Cookie Store
 * reads and writes the cookie without blocking, where `document.cookie`
 * waits for the browser process (docs/decisions/archive/1055-main-thread-at-the-floor.md).
 */
export const BOOT_SCRIPT =
  `(function(){var loaded=0,painted=0,done=0;` +
  whenIdleJs("idle") +
  `function boot(){if(done||!loaded||!painted)return;done=1;` +
  `idle(function(){try{var z=${BROWSER_TIME_ZONE_JS};if(!z)return;var v=encodeURIComponent(z);` +
  `function set(){document.cookie="tz="+v+";path=/;max-age=31536000;samesite=lax"}` +
  `window.cookieStore?cookieStore.get("tz").then(function(c){if(!c||c.value!==v)` +
  `return cookieStore.set({name:"tz",value:v,path:"/",expires:Date.now()+31536e6,sameSite:"lax"})}).catch(set)` +
  `:document.cookie.indexOf("tz="+v)<0&&set()}catch(e){}});` +
  `idle(function(){var c=document.querySelector("style[data-href]");` +
  `if(c){var l=document.createElement("link");l.rel="prefetch";l.as="style";l.href=c.getAttribute("data-href");document.head.appendChild(l)}});` +
  `idle(function(){if(!document.querySelector('link[rel="manifest"]')){var m=document.createElement("link");m.rel="manifest";m.href=${JSON.stringify(MANIFEST_HREF)};document.head.appendChild(m)}});` +
  `idle(function(){if("serviceWorker"in navigator)navigator.serviceWorker.register("/sw.js").catch(function(){})})}` +
  `function paint(){painted=1;boot()}` +
  `addEventListener("load",function(){loaded=1;boot()});` +
  `${onFirstPaintJs("paint")}})();`;
