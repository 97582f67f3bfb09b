// The pure pieces of the service worker's kept pages (public/sw.js,
// docs/decisions/1001-offline-reading-of-kept-pages.md), run from the worker's own source in a bare context:
// which pages may be kept, which page a data request stands for, what the
// pruning drops and how a kept copy is rewritten for offline reading. The
// browser journey is tests/e2e/offline-reading.spec.ts.
import fs from "node:fs";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { serviceWorkerSource } from "../../server/service-worker-file";
import { FakeCache, fakeCacheStorage } from "../support/fake-cache-storage";

const ORIGIN = "https://fairshake.example";
const DAY = 24 * 60 * 60 * 1000;

type Worker = {
  keptPageKey(href: string, origin: string): string | null;
  pageOfDataRequest(href: string): string | null;
  pagesToDrop(
    entries: { key: string; keptAt: number }[],
    now: number,
  ): string[];
  offlineCopyHtml(html: string, keptAtText: string): string;
};

function loadWorker(): Worker {
  const context = vm.createContext({
    self: { addEventListener() {}, location: { origin: ORIGIN } },
    URL,
    Response,
  });
  // As the server answers the file: the routes' table written in (which
  // routes say what is tests/lint/route-traits.test.ts).
  vm.runInContext(
    serviceWorkerSource(fs.readFileSync("public/sw.js", "utf8"), {
      signOut: ["/logout", "/logout.data", "/api/logout"],
      keptForReading: ["/", "/my-bets", "/notifications", "/bet/:id"],
    }),
    context,
  );
  return context as unknown as Worker;
}

const sw = loadWorker();
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("keptPageKey", () => {
  it.each(["/", "/my-bets", "/notifications", "/bet/12"])(
    "keeps %s",
    (path) => {
      expect(sw.keptPageKey(ORIGIN + path, ORIGIN)).toBe(ORIGIN + path);
    },
  );

  it.each([
    "/auth",
    "/auth?tab=register",
    "/logout",
    "/payment/3",
    "/checkout/3",
    "/bet/3/edit",
    "/bet/3/rule",
    "/settle-bet/3",
    "/profile",
    "/financial-history",
    "/my-bets?tab=created",
    "/notifications?tab=finances",
    "/bet/3?joined=1",
    "/bet/abc",
    "/api/user",
    "/bet/3.data",
    "/offline.html",
  ])("never keeps %s", (path) => {
    expect(sw.keptPageKey(ORIGIN + path, ORIGIN)).toBeNull();
  });

  it("never keeps another site's page", () => {
    expect(sw.keptPageKey("https://elsewhere.example/", ORIGIN)).toBeNull();
  });
});

describe("pageOfDataRequest", () => {
  it.each([
    ["/_.data?_routes=root%2Croutes%2Fhome", "/"],
    ["/my-bets/_.data?tab=created", "/my-bets/?tab=created"],
    ["/bet/7.data?_routes=routes%2Fbets%2Fbet-detail", "/bet/7"],
    ["/my-bets.data?tab=created&_routes=x", "/my-bets?tab=created"],
    ["/notifications.data", "/notifications"],
  ])("%s stands for %s", (data, page) => {
    expect(sw.pageOfDataRequest(ORIGIN + data)).toBe(page);
  });

  it("is null for anything but a data request", () => {
    expect(sw.pageOfDataRequest(`${ORIGIN}/bet/7`)).toBeNull();
    expect(sw.pageOfDataRequest(`${ORIGIN}/api/user`)).toBeNull();
  });
});

describe("pagesToDrop", () => {
  const now = 100 * DAY;

  it("keeps the newest 50 and drops the rest, oldest first", () => {
    const entries = Array.from({ length: 53 }, (_, i) => ({
      key: `/bet/${i}`,
      keptAt: now - (53 - i) * 60_000,
    }));
    expect(plain(sw.pagesToDrop(entries, now))).toEqual([
      "/bet/0",
      "/bet/1",
      "/bet/2",
    ]);
  });

  it("drops copies older than 7 days, whatever their number", () => {
    const entries = [
      { key: "/", keptAt: now - 7 * DAY - 1 },
      { key: "/my-bets", keptAt: now - 7 * DAY },
      { key: "/bet/1", keptAt: now - DAY },
    ];
    expect(plain(sw.pagesToDrop(entries, now))).toEqual(["/"]);
  });
});

describe("offlineCopyHtml", () => {
  const page =
    `<!DOCTYPE html><html lang="en"><head><link rel="modulepreload" href="/assets/a.js"/>` +
    `<style data-href="/assets/app.css">body{}</style></head>` +
    `<body class="min-h-dvh"><main><h1>Bet</h1>` +
    `<form method="post"><input name="x"/><select name="s"></select><textarea name="t"></textarea>` +
    `<button type="submit">Join</button></form><a href="/my-bets">My Bets</a></main>` +
    `<script nonce="n">(function(){boot()})();</script>` +
    `<script type="module" nonce="n">import "/assets/entry.js";</script></body></html>`;
  const copy = sw.offlineCopyHtml(page, "Nov 26, 2026, 10:30 PM");

  it("puts the banner right after <body>, with the time it was kept", () => {
    expect(copy).toContain(
      '<body class="min-h-dvh"><div role="status" data-offline-banner',
    );
    expect(copy).toContain(
      "Offline — showing this page as it was at Nov 26, 2026, 10:30 PM.</div><main>",
    );
    expect(copy).toContain('<html data-offline-copy lang="en">');
  });

  it("takes the scripts out, so nothing hydrates over the copy", () => {
    expect(copy).not.toMatch(/<script/i);
    expect(copy).not.toContain("modulepreload");
    expect(copy).toContain('<style data-href="/assets/app.css">');
  });

  it("disables every form control, and leaves links alone", () => {
    expect(copy).toContain('<input disabled name="x"/>');
    expect(copy).toContain('<select disabled name="s">');
    expect(copy).toContain('<textarea disabled name="t">');
    expect(copy).toContain('<button disabled type="submit">Join</button>');
    expect(copy).toContain('<a href="/my-bets">My Bets</a>');
  });

  it("escapes the time text", () => {
    expect(sw.offlineCopyHtml("<body>", "<b>")).toContain("at &lt;b&gt;.");
  });
});

// --- The worker's events, against an in-memory Cache Storage -----------------

type FakeRequest = { url: string; method: string; mode: string };
type Handler = (event: unknown) => void;

function workerWithCaches() {
  const store = new Map<string, FakeCache>();
  const handlers: Record<string, Handler> = {};
  let network: (request: FakeRequest) => Promise<Response> = () =>
    Promise.reject(new TypeError("Failed to fetch"));
  const context = vm.createContext({
    self: {
      addEventListener: (type: string, handler: Handler) => {
        handlers[type] = handler;
      },
      location: { origin: ORIGIN },
    },
    URL,
    Response,
    fetch: (request: FakeRequest) => network(request),
    caches: fakeCacheStorage(store, () => new FakeCache(ORIGIN)),
  });
  // As the server answers the file: the routes' table written in (which
  // routes say what is tests/lint/route-traits.test.ts).
  vm.runInContext(
    serviceWorkerSource(fs.readFileSync("public/sw.js", "utf8"), {
      signOut: ["/logout", "/logout.data", "/api/logout"],
      keptForReading: ["/", "/my-bets", "/notifications", "/bet/:id"],
    }),
    context,
  );
  const offline = new FakeCache(ORIGIN);
  void offline.put(`${ORIGIN}/offline.html`, new Response("You're offline"));
  store.set("fairshake-offline-v1", offline);

  /** Sends a request through the worker: its answer (if it gave one) and all its work done. */
  async function send(
    path: string,
    { method = "GET", mode = "navigate" } = {},
  ) {
    let answer: Promise<Response> | undefined;
    const pending: Promise<unknown>[] = [];
    handlers.fetch!({
      request: { url: ORIGIN + path, method, mode },
      respondWith: (p: Promise<Response>) => {
        answer = Promise.resolve(p);
      },
      waitUntil: (p: Promise<unknown>) => pending.push(p),
    });
    const response = await answer;
    while (pending.length) await pending.shift();
    return response;
  }
  const kept = () =>
    [...store.entries()]
      .filter(([name]) => name.startsWith("fairshake-pages-"))
      .flatMap(([name, cache]) =>
        [...cache.entries.keys()].map(
          (url) => `${name} ${url.slice(ORIGIN.length)}`,
        ),
      );
  return {
    send,
    kept,
    store,
    online: (answer: (request: FakeRequest) => Promise<Response>) => {
      network = answer;
    },
    offline: () => {
      network = () => Promise.reject(new TypeError("Failed to fetch"));
    },
  };
}

const pageFor = (user: string, body = "<h1>Bet</h1>") =>
  new Response(
    `<!DOCTYPE html><html lang="en"><body><main>${body}<form method="post"><button>Join</button></form></main>` +
      `<script nonce="n">boot()</script></body></html>`,
    {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "X-Fairshake-User": user,
      },
    },
  );

describe("the worker's kept pages", () => {
  it("keeps a signed-in page and shows it offline, marked and read-only; a page never kept gets the offline page", async () => {
    const w = workerWithCaches();
    w.online(async () => pageFor("7"));
    await w.send("/bet/3");
    await w.send("/profile");
    expect(w.kept()).toEqual(["fairshake-pages-7 /bet/3"]);

    w.offline();
    const copy = (await w.send("/bet/3"))!;
    const html = await copy.text();
    expect(html).toContain("Offline — showing this page as it was at ");
    expect(html).toContain("<button disabled>Join</button>");
    expect(html).not.toContain("<script");
    expect(copy.headers.get("Content-Security-Policy")).toContain(
      "script-src 'none'",
    );
    expect(await (await w.send("/bet/4"))!.text()).toBe("You're offline");
    expect(await (await w.send("/profile"))!.text()).toBe("You're offline");
  });

  it("never shows a copy kept more than 7 days ago", async () => {
    const w = workerWithCaches();
    const cache = new FakeCache(ORIGIN);
    await cache.put(
      `${ORIGIN}/my-bets`,
      new Response("<body>old", {
        headers: {
          "X-Fairshake-Kept-At": String(Date.now() - 8 * DAY),
        },
      }),
    );
    w.store.set("fairshake-pages-7", cache);
    expect(await (await w.send("/my-bets"))!.text()).toBe("You're offline");
  });

  it.each([
    ["someone else", "8"],
    ["no one", "-"],
  ])(
    "forgets every kept page at an answer for %s, page or data",
    async (_, user) => {
      for (const path of ["/search", "/bet/9.data?_routes=x"]) {
        const w = workerWithCaches();
        w.online(async () => pageFor("7"));
        await w.send("/");
        expect(w.kept()).toEqual(["fairshake-pages-7 /"]);
        w.online(async () => pageFor(user));
        await w.send(path, { mode: path.endsWith("x") ? "cors" : "navigate" });
        expect(w.kept()).toEqual([]);
      }
    },
  );

  it("keeps a page with no user header as it is: an answer that never looked does not forget", async () => {
    const w = workerWithCaches();
    w.online(async () => pageFor("7"));
    await w.send("/");
    w.online(async () => new Response("{}"));
    await w.send("/bet/9.data?_routes=x", { mode: "cors" });
    expect(w.kept()).toEqual(["fairshake-pages-7 /"]);
  });

  it("forgets at the sign-out itself, and does not keep a page still arriving for the person who left", async () => {
    const w = workerWithCaches();
    w.online(async () => pageFor("7"));
    await w.send("/");
    let finish!: () => void;
    w.online(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("<body>slow"));
          finish = () => controller.close();
        },
      });
      return new Response(body, {
        headers: { "Content-Type": "text/html", "X-Fairshake-User": "7" },
      });
    });
    const arriving = w.send("/my-bets");
    await new Promise((resolve) => setTimeout(resolve, 10));
    w.offline();
    await w.send("/logout.data", { method: "POST", mode: "cors" });
    expect(w.kept()).toEqual([]);
    finish();
    await arriving;
    expect(w.kept()).toEqual([]);
  });

  it("answers a data request offline with React Router's redirect to load the page as a document", async () => {
    const w = workerWithCaches();
    const answer = (await w.send("/my-bets.data?tab=created&_routes=a", {
      mode: "cors",
    }))!;
    expect(answer.status).toBe(204);
    expect(answer.headers.get("X-Remix-Redirect")).toBe("/my-bets?tab=created");
    expect(answer.headers.get("X-Remix-Reload-Document")).toBe("true");
    // API answers are not the worker's business.
    expect(await w.send("/api/user", { mode: "cors" })).toBeUndefined();
  });
});
