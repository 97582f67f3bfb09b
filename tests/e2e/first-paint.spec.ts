// The first paint comes from the HTML alone and the scripts start after it
// (docs/decisions/archive/0800-first-visit-paints-from-the-html.md, docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md). With JavaScript the page still hydrates, under
// its CSP; without it the served document is the same page, complete.
import { expect, jsEnabled, test, untilHydrated } from "./fixtures";

test("the scripts start after the first paint, and the page hydrates", async ({
  signedInPage: page,
}, testInfo) => {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));

  // A first visit (a fresh browser): its document as served.
  const response = await page.goto("/create-bet");
  const html = (await response?.text()) ?? "";
  // The parser meets no module script: a small script inserts it later.
  expect(html).not.toMatch(/<script[^>]*type="module"/);
  expect(html).toContain('s.type="module"');

  const amount = page.getByLabel("Wager amount ($)");
  await expect(amount).toHaveValue("10");
  await expect(page.getByText("$9.75")).toBeVisible();

  // A first visit: the stylesheet is inline, and the file for next time is
  // prefetched after the load event and the first paint with JavaScript, from
  // a <noscript> without: never by the head itself, where it competed with
  // the first paint (docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md, docs/decisions/archive/0841-boot-work-after-load-and-first-paint.md).
  // The same for the web app manifest, which the browser fetches once it is
  // linked and the page has loaded; the icon is in the document (docs/decisions/archive/0842-icon-inline-manifest-after-first-paint.md).
  const head = html.slice(0, html.indexOf("</head>"));
  const headOutsideNoscript = head.replace(
    /<noscript>[\s\S]*?<\/noscript>/g,
    "",
  );
  expect(headOutsideNoscript).not.toContain('rel="prefetch"');
  expect(headOutsideNoscript).not.toContain('rel="manifest"');
  await expect
    .poll(() =>
      page.evaluate(() =>
        [
          ...document.querySelectorAll(
            'link[rel="manifest"], link[rel="icon"]',
          ),
        ].map((l) =>
          `${l.getAttribute("rel")} ${l.getAttribute("href")}`.replace(
            /^icon data:image\/svg\+xml,.*/,
            "icon data:image/svg+xml,…",
          ),
        ),
      ),
    )
    .toEqual(
      expect.arrayContaining([
        "icon data:image/svg+xml,…",
        "manifest /manifest.webmanifest",
      ]),
    );
  expect(
    await page.evaluate(() => document.querySelectorAll("head style").length),
  ).toBe(1);
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll('link[rel="prefetch"]')].map((l) =>
          l.getAttribute("href"),
        ),
      ),
    )
    .toEqual([expect.stringMatching(/^\/assets\/.*\.css$/)]);

  if (!jsEnabled(testInfo)) {
    // Nothing ran: the server's page is the whole page.
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((name) => /\/assets\/.*\.js$/.test(name)),
    );
    expect(scripts).toEqual([]);
    return;
  }

  await untilHydrated(amount);
  const order = await page.evaluate(() => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const resources = performance.getEntriesByType("resource");
    const scripts = resources.filter((e) => /\/assets\/.*\.js$/.test(e.name));
    const stylesheet = resources.find((e) => /\/assets\/.*\.css$/.test(e.name));
    return {
      paint: paint?.startTime ?? null,
      firstScript: Math.min(...scripts.map((e) => e.startTime)),
      scripts: scripts.length,
      stylesheetPrefetch: stylesheet?.startTime ?? null,
    };
  });
  expect(order.paint).not.toBeNull();
  expect(order.scripts).toBeGreaterThan(0);
  expect(order.firstScript).toBeGreaterThanOrEqual(order.paint!);
  // This small page's load event can come before its first paint: the
  // prefetch waits for both (docs/decisions/archive/0841-boot-work-after-load-and-first-paint.md).
  expect(order.stylesheetPrefetch).not.toBeNull();
  expect(order.stylesheetPrefetch!).toBeGreaterThanOrEqual(order.paint!);

  // Hydrated: the fee preview follows the amount.
  await amount.fill("200");
  await expect(page.getByText("$195.00")).toBeVisible();
  expect(problems).toEqual([]);
});

test("a page knows every route from the cached manifest: navigating asks the server for none", async ({
  signedInPage: page,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "only a hydrated page navigates itself");
  const manifestRequests: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/__manifest"))
      manifestRequests.push(r.url());
  });
  const response = await page.goto("/");
  // The page carries no manifest of its own (docs/decisions/archive/0837-route-manifest-up-front.md).
  expect(await response?.text()).not.toContain("__reactRouterManifest");
  const myBets = page.getByRole("link", { name: "My Bets" }).first();
  await untilHydrated(myBets);
  // It knows the pages only: the browser never routes to /api, it fetches
  // it (docs/decisions/archive/1057-the-browser-knows-the-pages-only.md).
  const known = await page.evaluate(() =>
    Object.values(
      (
        window as unknown as {
          __reactRouterManifest: { routes: Record<string, { path?: string }> };
        }
      ).__reactRouterManifest.routes,
    ).map((route) => route.path ?? ""),
  );
  expect(known).toContain("my-bets");
  expect(known).toContain("create-bet");
  expect(known.filter((path) => /^api(\/|$)/.test(path))).toEqual([]);
  await myBets.click();
  await expect(page).toHaveURL(/\/my-bets$/);
  await page.getByRole("link", { name: "Create a bet", exact: true }).click();
  await expect(page).toHaveURL(/\/create-bet$/);
  await expect(page.getByLabel("Wager amount ($)")).toHaveValue("10");
  // Client navigations: one document in all, the rest data requests.
  expect(
    await page.evaluate(
      () => performance.getEntriesByType("navigation").length,
    ),
  ).toBe(1);
  expect(manifestRequests).toEqual([]);
});
