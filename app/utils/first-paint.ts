/**
 * How long a page waits for the browser to report its first paint before it
 * goes on anyway, so that nothing waiting on the paint waits for ever.
 */
export const PAINT_WAIT_MS = 3000;

/**
 * JavaScript source (statements for an inline classic script) that calls the
 * function named `run` once the browser reports the page's first contentful
 * paint: a `paint` performance entry, which exists only once that frame is on
 * screen (a frame callback is not a paint, docs/decisions/archive/0831-scripts-start-at-the-reported-first-paint.md). It calls it
 * at once where no such report will come (a hidden tab paints nothing; a
 * browser without paint timing), when the tab is hidden before its paint, and
 * after PAINT_WAIT_MS at the latest. `run` may be called more than once: it
 * must act once.
 */
export function onFirstPaintJs(run: string): string {
  return (
    `try{var P=window.PerformanceObserver;` +
    `if(document.visibilityState!=="visible"||!P||(P.supportedEntryTypes||[]).indexOf("paint")===-1)${run}();else{` +
    `new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();${run}()}})` +
    `.observe({type:"paint",buffered:true});` +
    `document.addEventListener("visibilitychange",${run});setTimeout(${run},${PAINT_WAIT_MS})}}catch(e){${run}()}`
  );
}
