// The pure pieces of the service worker's kept pages (public/sw.js,
// docs/decisions/1001), run from the worker's own source in a bare context:
// which pages may be kept, which page a data request stands for, what the
// pruning drops and how a kept copy is rewritten for offline reading. The
// browser journey is tests/e2e/offline-reading.spec.ts.
import fs from "node:fs";
import vm from "node:vm";
import { describe, expect, it } from "vitest";

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
  vm.runInContext(fs.readFileSync("public/sw.js", "utf8"), context);
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
    ["/_root.data?_routes=root%2Croutes%2Fhome", "/"],
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
