// The root's boot script, run in a pretend browser: nothing of it happens
// until the page has both loaded and painted (docs/decisions/archive/0841-boot-work-after-load-and-first-paint.md),
// and then each piece waits for the browser to be idle, in a task of its own
// (docs/decisions/archive/1055-main-thread-at-the-floor.md).
import { describe, expect, it } from "vitest";
import { BOOT_SCRIPT } from "./boot-script";
import { PAINT_WAIT_MS } from "./first-paint";
import { IDLE_WAIT_MS } from "./idle";

function runBoot({
  stylesheetInline = true,
  idleCallbacks = true,
  temporal = false,
  cookieStore = false,
  cookie = "",
} = {}) {
  const appended: Record<string, string>[] = [];
  const registered: string[] = [];
  let onLoad: (() => void) | undefined;
  let reportPaint: (() => void) | undefined;
  const timers: { f: () => void; ms: number }[] = [];
  const idle: { f: () => void; timeout: number }[] = [];
  let zoneLookups = 0;
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
  let cookieReads = 0;
  let cookieWrites = 0;
  let jar = cookie;
  const pending: Promise<unknown>[] = [];
  const document = {
    visibilityState: "visible",
    get cookie() {
      cookieReads++;
      return jar;
    },
    set cookie(value: string) {
      cookieWrites++;
      jar = value;
    },
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
  const Temporal = temporal
    ? { Now: { timeZoneId: () => (zoneLookups++, "Asia/Tokyo") } }
    : undefined;
  const env = {
    document,
    window: {
      PerformanceObserver: FakeObserver,
      Temporal,
      cookieStore: cookieStore || undefined,
    },
    Temporal,
    cookieStore: cookieStore
      ? {
          get: (name: string) => {
            const hit = new RegExp(`(?:^|; )${name}=([^;]*)`).exec(jar);
            const answer = Promise.resolve(hit ? { value: hit[1] } : null);
            pending.push(answer);
            return answer;
          },
          set: (options: {
            name: string;
            value: string;
            path: string;
            expires: number;
            sameSite: string;
          }) => {
            // As document.cookie would hold it, for the same expectations.
            const days = Math.round((options.expires - Date.now()) / 864e5);
            jar = `${options.name}=${options.value};path=${options.path};max-age=${days * 86400};samesite=${options.sameSite}`;
            return Promise.resolve();
          },
        }
      : undefined,
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
        resolvedOptions: () => (zoneLookups++, { timeZone: "Europe/Paris" }),
      }),
    },
    addEventListener: (type: string, f: () => void) => {
      if (type === "load") onLoad = f;
    },
    setTimeout: (f: () => void, ms: number) => timers.push({ f, ms }),
    requestIdleCallback: idleCallbacks
      ? (f: () => void, options: { timeout: number }) =>
          idle.push({ f, timeout: options.timeout })
      : undefined,
  };
  new Function(...Object.keys(env), BOOT_SCRIPT)(...Object.values(env));
  const booted = () => ({
    linked: appended.map((l) =>
      [l.rel, l.as, l.href].filter(Boolean).join(" "),
    ),
    registered: [...registered],
    cookie: jar,
  });
  return {
    booted,
    load: () => onLoad!(),
    paint: () => reportPaint!(),
    timer: (ms: number) => timers.find((t) => t.ms === ms)!,
    /** What waits for an idle moment (or, without requestIdleCallback, a timer). */
    waiting: () => (idleCallbacks ? idle : timers.filter((t) => t.ms === 1)),
    /** The browser falls idle: each waiting piece runs, one at a time. */
    idle: () => {
      const queue = idleCallbacks ? idle : timers.filter((t) => t.ms === 1);
      for (const { f } of queue.splice(0)) f();
      if (!idleCallbacks)
        timers.splice(0, timers.length, ...timers.filter((t) => t.ms !== 1));
    },
    zoneLookups: () => zoneLookups,
    cookieReads: () => cookieReads,
    cookieWrites: () => cookieWrites,
    /** The Cookie Store's answers arrive. */
    answers: async () => {
      await Promise.all(pending);
      await Promise.resolve();
    },
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
    page.idle();
    expect(page.booted()).toEqual(nothing);
    page.paint();
    page.idle();
    expect(page.booted()).toEqual(everything);
  });

  it("waits for the load event when the paint comes first, and acts once", () => {
    const page = runBoot();
    page.paint();
    page.idle();
    expect(page.booted()).toEqual(nothing);
    page.load();
    page.idle();
    expect(page.booted()).toEqual(everything);
    page.timer(PAINT_WAIT_MS).f();
    page.load();
    page.idle();
    expect(page.booted()).toEqual(everything);
  });

  it("goes on after PAINT_WAIT_MS when no paint is reported", () => {
    const page = runBoot();
    page.load();
    page.timer(PAINT_WAIT_MS).f();
    page.idle();
    expect(page.booted()).toEqual(everything);
  });

  it("prefetches nothing when the stylesheet is linked (a returning visit)", () => {
    const page = runBoot({ stylesheetInline: false });
    page.load();
    page.paint();
    page.idle();
    expect(page.booted()).toEqual({
      ...everything,
      linked: ["manifest /manifest.webmanifest"],
    });
  });

  it("does each piece in an idle task of its own, none later than IDLE_WAIT_MS", () => {
    const page = runBoot();
    page.load();
    page.paint();
    // Nothing in the task that reported the paint.
    expect(page.booted()).toEqual(nothing);
    expect(page.zoneLookups()).toBe(0);
    expect(page.waiting().map((w) => "timeout" in w && w.timeout)).toEqual([
      IDLE_WAIT_MS,
      IDLE_WAIT_MS,
      IDLE_WAIT_MS,
      IDLE_WAIT_MS,
    ]);
    page.idle();
    expect(page.booted()).toEqual(everything);
  });

  it("puts the pieces on timers of their own where there is no requestIdleCallback (Safari)", () => {
    const page = runBoot({ idleCallbacks: false });
    page.load();
    page.paint();
    expect(page.booted()).toEqual(nothing);
    expect(page.waiting()).toHaveLength(4);
    page.idle();
    expect(page.booted()).toEqual(everything);
  });

  it("asks Temporal for the time zone where the browser has it, not Intl", () => {
    const page = runBoot({ temporal: true });
    page.load();
    page.paint();
    page.idle();
    expect(page.booted().cookie).toBe(
      "tz=Asia%2FTokyo;path=/;max-age=31536000;samesite=lax",
    );
    expect(page.zoneLookups()).toBe(1);
  });

  it("reads and writes the cookie through the Cookie Store where there is one, never document.cookie", async () => {
    const page = runBoot({ cookieStore: true });
    page.load();
    page.paint();
    page.idle();
    await page.answers();
    expect(page.booted()).toEqual(everything);
    expect(page.cookieReads()).toBe(0);
    expect(page.cookieWrites()).toBe(0);
  });

  it("leaves a cookie that already names the zone as it is", async () => {
    const kept = "tz=Europe%2FParis";
    for (const cookieStore of [true, false]) {
      const page = runBoot({ cookieStore, cookie: kept });
      page.load();
      page.paint();
      page.idle();
      await page.answers();
      expect(page.booted().cookie).toBe(kept);
    }
  });
});
