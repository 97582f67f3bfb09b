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

  await page.goto("/help/fees");
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
  request,
}) => {
  const sw = await (await request.get("/sw.js")).text();
  expect(sw).not.toMatch(/cache\.put/);
  expect(sw).toContain('request.mode !== "navigate"');
});
