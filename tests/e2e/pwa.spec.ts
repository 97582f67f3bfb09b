// Runs in the "js" project only (playwright.config.ts): a service worker
// needs JavaScript.
import type { BrowserContext, Locator } from "@playwright/test";
import { createPerson, expect, signIn, test } from "./fixtures";

test.use({ serviceWorkers: "allow" });

/**
 * Takes the browser offline, then navigates until the service worker answers
 * as it does offline (`answer` is on the page). Playwright's offline
 * emulation reaches a worker as that worker's target attaches, not with the
 * call (microsoft/playwright#2311): a reload a moment later was once answered
 * by the server through the worker, fresh. A worker that never gives its
 * offline answer still fails here.
 */
async function navigateOffline(
  context: BrowserContext,
  navigate: () => Promise<unknown>,
  answer: Locator,
) {
  await context.setOffline(true);
  await expect(async () => {
    await navigate().catch(() => undefined);
    await expect(answer).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

test("the app is installable and shows an offline page when the network is gone", async ({
  page,
  context,
  request,
}) => {
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.ok()).toBe(true);
  const json = await manifest.json();
  expect(json).toMatchObject({ start_url: "/", theme_color: "#047857" });
  expect(json.icons.length).toBeGreaterThan(0);

  // A page without scripts links the manifest from its head; a page with
  // them, from its boot script after the first paint (docs/decisions/archive/0842-icon-inline-manifest-after-first-paint.md).
  await page.goto("/help/fees");
  await expect(page.locator('head > link[rel="manifest"]')).toHaveAttribute(
    "href",
    "/manifest.webmanifest",
  );
  await page.goto("/auth");
  await page.evaluate(() => navigator.serviceWorker.register("/sw.js"));
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await navigateOffline(
    context,
    () => page.goto("/help/fees"),
    page.getByRole("heading", { name: "You're offline" }),
  );
  await context.setOffline(false);
});

// docs/product-rules.md#languages: the offline page speaks the language the
// pages spoke to this person, chosen by their browser or by the picker.
for (const { who, locale, accept, cookie } of [
  { who: "a German browser", locale: "de-DE", accept: "de-DE,de;q=0.9" },
  {
    who: "an English browser whose person picked German",
    locale: "en-US",
    accept: "en-US,en;q=0.9",
    cookie: "de",
  },
])
  test.describe(who, () => {
    test.use({ locale, extraHTTPHeaders: { "Accept-Language": accept } });

    test("sees the offline page in German", async ({
      page,
      context,
      baseURL,
    }) => {
      if (cookie)
        await context.addCookies([
          { name: "lang", value: cookie, url: baseURL! },
        ]);
      await page.goto("/auth");
      await page.evaluate(async () => {
        await navigator.serviceWorker.register("/sw.js");
        await navigator.serviceWorker.ready;
      });
      // A page answered through the worker: it notes the page's language.
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expect
        .poll(() =>
          page.evaluate(async () => {
            const copy = await caches.match("/offline.html");
            return copy?.headers.get("Content-Language") ?? null;
          }),
        )
        .toBe("de");
      await navigateOffline(
        context,
        () => page.goto("/help/fees"),
        page.getByRole("heading", { name: "Du bist offline" }),
      );
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expect(
        page.getByRole("link", { name: "Erneut versuchen" }),
      ).toBeVisible();
      await context.setOffline(false);
    });

    test("reads a kept page under a German banner", async ({
      page,
      context,
      baseURL,
    }) => {
      const me = await createPerson("offde");
      await signIn(context, baseURL!, me.cookie);
      if (cookie)
        await context.addCookies([
          { name: "lang", value: cookie, url: baseURL! },
        ]);
      await page.goto("/");
      await page.evaluate(async () => {
        await navigator.serviceWorker.register("/sw.js");
        await navigator.serviceWorker.ready;
      });
      await expect
        .poll(() => page.evaluate(() => !!navigator.serviceWorker.controller))
        .toBe(true);
      await page.reload();
      await expect
        .poll(() =>
          page.evaluate(async (id) => {
            const cache = await caches.open(`fairshake-pages-${id}`);
            return (await cache.keys()).map((r) => new URL(r.url).pathname);
          }, me.id),
        )
        .toContain("/");
      await navigateOffline(
        context,
        () => page.reload(),
        page.getByText(
          /^Keine Verbindung – diese Seite wird so gezeigt, wie sie am .+ war\.$/,
        ),
      );
      await context.setOffline(false);
    });
  });

test("the service worker keeps only the signed-in pages it may, never other pages or API answers", async ({
  signedInPage: page,
}) => {
  // A signed-in visit with the worker in control, then a reload: everything
  // the worker stored is the offline page, its icon, a hashed asset, a
  // page's messages (the same words for everyone), or a kept copy of home, My Bets, a bet page or Activity without a query
  // (docs/decisions/1001-offline-reading-of-kept-pages.md); never /profile, a tab's URL or an API answer.
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.goto("/my-bets");
  await page.goto("/my-bets?tab=created");
  await page.goto("/profile");
  await page.evaluate(() => fetch("/api/user").then((r) => r.text()));
  const stored = async () =>
    page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const req of await cache.keys()) {
          const url = new URL(req.url);
          urls.push(url.pathname + url.search);
        }
      }
      return urls;
    });
  await expect.poll(stored).toContain("/my-bets");
  const urls = await stored();
  for (const url of urls)
    expect(url).toMatch(
      /^(\/offline\.html|\/offline\/(en|es|de|pt-BR)\.html|\/favicon\.svg|\/assets\/.+|\/messages\/(en|es|de|pt-BR)\/[\w.-]+\.json|\/|\/my-bets|\/notifications|\/bet\/\d+)$/,
    );
  expect(urls).toContain("/");
});

test("a repeat visit takes its JavaScript from the service worker", async ({
  signedInPage: page,
}) => {
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
  });
  // The scripts this page has loaded so far, and whether the toast's chunk,
  // loaded when the browser is idle after hydration, is among them
  // (docs/decisions/archive/1055-main-thread-at-the-floor.md).
  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => new URL(e.name).pathname)
        .filter((path) => /^\/assets\/.+\.js$/.test(path)),
    );
  const withIdleChunk = async () =>
    (await scripts()).some((path) => path.includes("/live-toaster-"));
  // The worker is told of the assets this page loaded, the idle ones too,
  // and keeps them all.
  await expect.poll(withIdleChunk).toBe(true);
  await expect
    .poll(async () => {
      const kept = await page.evaluate(async () => {
        const cache = await caches.open("fairshake-assets-v1");
        return (await cache.keys()).map((r) => new URL(r.url).pathname);
      });
      return (await scripts()).filter((path) => !kept.includes(path));
    })
    .toEqual([]);
  const fromNetwork: string[] = [];
  page.on("response", (response) => {
    if (
      new URL(response.url()).pathname.startsWith("/assets/") &&
      !response.fromServiceWorker()
    )
      fromNetwork.push(response.url());
  });
  await page.reload();
  await expect(page.getByRole("navigation").first()).toBeVisible();
  await expect.poll(withIdleChunk).toBe(true);
  expect(fromNetwork).toEqual([]);
});
