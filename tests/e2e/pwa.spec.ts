// Runs in the "js" project only (playwright.config.ts): a service worker
// needs JavaScript.
import { expect, test } from "./fixtures";

test.use({ serviceWorkers: "allow" });

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
  // them, from its boot script after the first paint (0842).
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
  await context.setOffline(true);
  await page.goto("/help/fees").catch(() => undefined);
  await expect(
    page.getByRole("heading", { name: "You're offline" }),
  ).toBeVisible();
  await context.setOffline(false);
});

test("the service worker never caches pages or API answers", async ({
  signedInPage: page,
  request,
}) => {
  const sw = await (await request.get("/sw.js")).text();
  expect(sw).toContain('request.mode !== "navigate"');

  // A signed-in visit with the worker in control, then a reload: everything
  // the worker stored is the offline page, its icon or a hashed asset.
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.goto("/my-bets");
  await page.evaluate(() => fetch("/api/user").then((r) => r.text()));
  const stored = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys())
        urls.push(new URL(req.url).pathname);
    }
    return urls;
  });
  expect(stored.length).toBeGreaterThan(0);
  for (const url of stored)
    expect(url).toMatch(/^(\/offline\.html|\/favicon\.svg|\/assets\/.+)$/);
});

test("a repeat visit takes its JavaScript from the service worker", async ({
  signedInPage: page,
}) => {
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
  });
  // The worker is told of the assets this page loaded and keeps them.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const cache = await caches.open("fairshake-assets-v1");
        return (await cache.keys()).some((r) => r.url.endsWith(".js"));
      }),
    )
    .toBe(true);
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
  expect(fromNetwork).toEqual([]);
});
