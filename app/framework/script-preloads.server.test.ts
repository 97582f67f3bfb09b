import { describe, expect, it } from "vitest";
import { PAINT_WAIT_MS } from "~/utils/first-paint";
import {
  withModuleAfterFirstPaint,
  withoutScriptPreloads,
} from "./script-preloads.server";

const MESSAGES = "/messages/en/bet.errors.aaaaaaaaaaaa.json";
const MODULE = `;\nimport * as route0 from "/assets/root-1.js";\nwindow.__reactRouterRouteModules = {"root": route0};\nif (1 <!--2) {}\nimport("/assets/entry.client-2.js");`;
const page = (body: string) =>
  `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/a.js"/><title>t</title></head><body><main>content</main>${body}</body></html>`;

describe("withoutScriptPreloads", () => {
  it("drops the head's modulepreload tags and nothing after </head>", () => {
    const html = page(`<link rel="modulepreload" href="/assets/b.js"/>`);
    const out = withoutScriptPreloads(html);
    expect(out).not.toContain("/assets/a.js");
    expect(out).toContain("/assets/b.js");
  });
});

describe("withModuleAfterFirstPaint", () => {
  const html = page(
    `<script nonce="n0+/=">window.__reactRouterContext = {};</script><script nonce="n0+/=" type="module" async="">${MODULE}</script><script nonce="n0+/=">enqueue()</script>`,
  );
  const out = withModuleAfterFirstPaint(html);

  it("leaves no module script for the parser to run", () => {
    expect(out).not.toMatch(/<script[^>]*type="module"/);
    // Everything else is where it was.
    expect(
      out.replace(/<script nonce="n0\+\/=">\(function[\s\S]*?<\/script>/, ""),
    ).toBe(
      html.replace(
        /<script nonce="n0\+\/=" type="module"[\s\S]*?<\/script>/,
        "",
      ),
    );
  });

  const starterOf = (doc: string) =>
    /<script nonce="n0\+\/=">(\(function[\s\S]*?)<\/script>/.exec(doc)?.[1];

  /** Runs the starter in a pretend browser; returns its levers. */
  function runStarter({
    visibility = "visible",
    paintTiming = true,
  }: { visibility?: string; paintTiming?: boolean } = {}) {
    const appended: Record<string, string>[] = [];
    const preloaded: Record<string, string>[] = [];
    let report: ((names: string[]) => void) | undefined;
    let observed: unknown;
    let disconnected = false;
    let timer: { f: () => void; ms: number } | undefined;
    let onVisibility: (() => void) | undefined;
    class FakeObserver {
      static supportedEntryTypes = paintTiming ? ["paint", "resource"] : [];
      constructor(
        callback: (
          list: { getEntriesByName: (n: string) => unknown[] },
          o: FakeObserver,
        ) => void,
      ) {
        report = (names) =>
          callback(
            { getEntriesByName: (n) => names.filter((x) => x === n) },
            this,
          );
      }
      observe(options: unknown) {
        observed = options;
      }
      disconnect() {
        disconnected = true;
      }
    }
    const env = {
      document: {
        visibilityState: visibility,
        addEventListener: (_: string, f: () => void) => (onVisibility = f),
        createElement: () => ({}) as Record<string, string>,
        body: { appendChild: (s: Record<string, string>) => appended.push(s) },
        // The page's messages file, named by the root (app/root.tsx).
        querySelector: (selector: string) =>
          selector === 'meta[name="page-messages"]'
            ? { content: MESSAGES }
            : null,
        head: {
          appendChild: (l: Record<string, string>) => preloaded.push(l),
        },
      },
      window: { PerformanceObserver: FakeObserver },
      setTimeout: (f: () => void, ms: number) => (timer = { f, ms }),
    };
    new Function(...Object.keys(env), starterOf(out)!)(...Object.values(env));
    return {
      appended,
      preloaded,
      report: (names: string[]) => report!(names),
      observed: () => observed,
      disconnected: () => disconnected,
      timer: () => timer,
      hide: () => onVisibility!(),
    };
  }
  const inserted = [{ type: "module", nonce: "n0+/=", textContent: MODULE }];
  const messagesPreload = [
    { rel: "preload", as: "fetch", crossOrigin: "anonymous", href: MESSAGES },
  ];

  it("inserts the same module, with the same nonce, once the browser reports the first contentful paint", () => {
    const page = runStarter();
    expect(page.observed()).toEqual({ type: "paint", buffered: true });
    expect(page.appended).toEqual([]); // nothing before the paint
    page.report(["first-paint"]); // a paint with nothing contentful yet
    expect(page.appended).toEqual([]);
    expect(page.preloaded).toEqual([]);
    page.report(["first-contentful-paint"]);
    expect(page.appended).toEqual(inserted);
    // The page's messages set off with the module, not before the paint.
    expect(page.preloaded).toEqual(messagesPreload);
    expect(page.disconnected()).toBe(true);
    // Once only, whatever comes after.
    page.timer()!.f();
    page.hide();
    expect(page.appended).toHaveLength(1);
  });

  it("starts at once where no paint will be reported: a hidden tab, a browser without paint timing", () => {
    expect(runStarter({ visibility: "hidden" }).appended).toEqual(inserted);
    expect(runStarter({ paintTiming: false }).appended).toEqual(inserted);
  });

  it("starts when the tab is hidden before its paint, and after PAINT_WAIT_MS at the latest", () => {
    const hidden = runStarter();
    hidden.hide();
    expect(hidden.appended).toEqual(inserted);
    const slow = runStarter();
    expect(slow.timer()!.ms).toBe(PAINT_WAIT_MS);
    slow.timer()!.f();
    expect(slow.appended).toEqual(inserted);
  });

  it("writes the module's text with no `<`, so neither `</script>` nor `<!--` can end the script early", () => {
    const starter = starterOf(out);
    expect(MODULE).toContain("<");
    expect(starter).not.toContain("<");
  });

  it("leaves a page without a module script alone", () => {
    const plain = page("");
    expect(withModuleAfterFirstPaint(plain)).toBe(plain);
  });
});
