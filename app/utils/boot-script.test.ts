// The root's boot script, run in a pretend browser: nothing of it happens
// until the page has both loaded and painted (docs/decisions/archive/0841-boot-work-after-load-and-first-paint.md).
import { describe, expect, it } from "vitest";
import { BOOT_SCRIPT } from "./boot-script";
import { PAINT_WAIT_MS } from "./first-paint";

function runBoot({ stylesheetInline = true } = {}) {
  const appended: Record<string, string>[] = [];
  const registered: string[] = [];
  let onLoad: (() => void) | undefined;
  let reportPaint: (() => void) | undefined;
  let timer: { f: () => void; ms: number } | undefined;
  class FakeObserver {
    static supportedEntryTypes = ["paint"];
    constructor(
      callback: (
        list: { getEntriesByName: (n: string) => unknown[] },
        o: FakeObserver,
      ) => void,
    ) {
      reportPaint = () =>
        callback({ getEntriesByName: (n) => [n] }, this as FakeObserver);
    }
    observe() {}
    disconnect() {}
  }
  const document = {
    visibilityState: "visible",
    cookie: "",
    addEventListener: () => {},
    querySelector: (selector: string) => {
      if (selector === "style[data-href]" && stylesheetInline)
        return { getAttribute: () => "/assets/app-1.css" };
      if (selector === 'link[rel="manifest"]')
        return appended.find((l) => l.rel === "manifest") ?? null;
      return null;
    },
    createElement: () => ({}) as Record<string, string>,
    head: { appendChild: (l: Record<string, string>) => appended.push(l) },
  };
  const env = {
    document,
    window: { PerformanceObserver: FakeObserver },
    navigator: {
      serviceWorker: {
        register: (url: string) => {
          registered.push(url);
          return Promise.resolve();
        },
      },
    },
    Intl: {
      DateTimeFormat: () => ({
        resolvedOptions: () => ({ timeZone: "Europe/Paris" }),
      }),
    },
    addEventListener: (type: string, f: () => void) => {
      if (type === "load") onLoad = f;
    },
    setTimeout: (f: () => void, ms: number) => (timer = { f, ms }),
  };
  new Function(...Object.keys(env), BOOT_SCRIPT)(...Object.values(env));
  const booted = () => ({
    linked: appended.map((l) =>
      [l.rel, l.as, l.href].filter(Boolean).join(" "),
    ),
    registered: [...registered],
    cookie: document.cookie,
  });
  return {
    booted,
    load: () => onLoad!(),
    paint: () => reportPaint!(),
    timer: () => timer!,
  };
}

const nothing = { linked: [], registered: [], cookie: "" };
const everything = {
  linked: [
    "prefetch style /assets/app-1.css",
    "manifest /manifest.webmanifest",
  ],
  registered: ["/sw.js"],
  cookie: "tz=Europe%2FParis;path=/;max-age=31536000;samesite=lax",
};

describe("the boot script", () => {
  it("waits for the first paint when the load event comes first, as it can on a small page", () => {
    const page = runBoot();
    page.load();
    expect(page.booted()).toEqual(nothing);
    page.paint();
    expect(page.booted()).toEqual(everything);
  });

  it("waits for the load event when the paint comes first, and acts once", () => {
    const page = runBoot();
    page.paint();
    expect(page.booted()).toEqual(nothing);
    page.load();
    expect(page.booted()).toEqual(everything);
    page.timer().f();
    page.load();
    expect(page.booted()).toEqual(everything);
  });

  it("goes on after PAINT_WAIT_MS when no paint is reported", () => {
    const page = runBoot();
    page.load();
    expect(page.timer().ms).toBe(PAINT_WAIT_MS);
    page.timer().f();
    expect(page.booted()).toEqual(everything);
  });

  it("prefetches nothing when the stylesheet is linked (a returning visit)", () => {
    const page = runBoot({ stylesheetInline: false });
    page.load();
    page.paint();
    expect(page.booted()).toEqual({
      ...everything,
      linked: ["manifest /manifest.webmanifest"],
    });
  });
});
