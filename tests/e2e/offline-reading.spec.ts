// Offline reading (docs/product-rules.md#offline-reading, docs/decisions/1001-offline-reading-of-kept-pages.md):
// the service worker keeps the latest copy of the signed-in pages a person
// opened and shows it, marked and read-only, when the network is gone; a
// page never opened gets the offline page; signing out or another person
// signing in forgets every kept page. Runs in the "js" project only
// (playwright.config.ts): a service worker needs JavaScript.
import type { BrowserContext, Page } from "@playwright/test";
import {
  apiPost,
  createPerson,
  expect,
  signIn,
  test,
  uniqueUsername,
  untilHydrated,
} from "./fixtures";

test.use({ serviceWorkers: "allow" });

const BANNER = "Offline — showing this page as it was at";

async function newBet(baseURL: string, who: { cookie: string }) {
  const title = `Offline bet ${uniqueUsername("t")}`;
  const bet = (await apiPost(baseURL, who, "/api/bets", {
    title,
    description: "Whoever loses buys lunch.",
    amount: 7,
    deadline: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    visibility: "public",
  })) as { id: number };
  return { id: bet.id, title, path: `/bet/${bet.id}` };
}

/** Registers the worker and waits until it controls this page. */
async function underTheWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(() => !!navigator.serviceWorker.controller))
    .toBe(true);
}

/** Every kept page, as "<cache name> <path>". */
function keptPages(page: Page) {
  return page.evaluate(async () => {
    const kept: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith("fairshake-pages-")) continue;
      for (const request of await (await caches.open(name)).keys())
        kept.push(`${name} ${new URL(request.url).pathname}`);
    }
    return kept;
  });
}

/** Opens `path` online and waits until the worker has kept it. */
async function openAndKeep(page: Page, path: string, userId: number) {
  await page.goto(path);
  await expect
    .poll(() => keptPages(page))
    .toContain(`fairshake-pages-${userId} ${path}`);
}

async function expectOfflinePage(page: Page) {
  await expect(
    page.getByRole("heading", { name: "You're offline" }),
  ).toBeVisible();
  await expect(page.getByText(BANNER)).toHaveCount(0);
}

test.afterEach(async ({ context }) => {
  await context.setOffline(false);
});

test("a page opened online opens offline from its kept copy, marked and with its forms disabled; a page never opened shows the offline page", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await createPerson("off");
  const other = await createPerson("offo");
  const theirs = await newBet(baseURL!, other);
  const mine = await newBet(baseURL!, me);
  await signIn(context, baseURL!, me.cookie);

  await page.goto("/");
  await underTheWorker(page);
  await openAndKeep(page, "/", me.id);
  const before = Date.now();
  await openAndKeep(page, theirs.path, me.id);
  const after = Date.now();
  await expect(page.getByRole("button", { name: /Join Bet/ })).toBeEnabled();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText(BANNER)).toBeVisible();
  // The time it was kept, in the browser's locale and zone, to the minute.
  const times = await page.evaluate(
    (moments) =>
      moments.map((t) =>
        new Intl.DateTimeFormat(undefined, {
          dateStyle: "medium",
          timeStyle: "short",
        }).format(new Date(t)),
      ),
    [before, after] as number[],
  );
  const banner = await page.locator("[data-offline-banner]").textContent();
  expect(times.map((t) => `${BANNER} ${t}.`)).toContain(banner);
  // Styled as it was: the bottom navigation still sits fixed at the bottom.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCSS(
    "position",
    "fixed",
  );
  await expect(page.locator("html")).toHaveAttribute("data-offline-copy", "");
  await expect(page.getByRole("heading", { name: theirs.title })).toBeVisible();
  // Its forms are read-only: the bet's Join and the header's Logout alike.
  await expect(page.getByRole("button", { name: /Join Bet/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Logout" })).toBeDisabled();
  const submits = page.locator("form button, form input[type=submit]");
  expect(await submits.count()).toBeGreaterThan(1);
  for (const button of await submits.all()) await expect(button).toBeDisabled();
  // Nothing hydrates over the copy: the banner is still there a moment later.
  await page.waitForTimeout(500);
  await expect(page.getByText(BANNER)).toBeVisible();

  // Home, kept too, by a plain link from the copy.
  await page.goto("/");
  await expect(page.getByText(BANNER)).toBeVisible();
  await expect(
    page.getByRole("heading", { name: `Hi, ${me.username}` }),
  ).toBeVisible();

  // A bet page never opened, and a tab of a kept page (a query is never
  // kept): the offline page.
  await page.goto(mine.path);
  await expectOfflinePage(page);
  await page.goto("/my-bets?tab=created");
  await expectOfflinePage(page);
});

test("a client-side navigation while offline loads the kept copy, or the offline page for a page never opened", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await createPerson("offn");
  const unopened = await newBet(baseURL!, me);
  const mine = await newBet(baseURL!, me);
  await signIn(context, baseURL!, me.cookie);

  await page.goto("/");
  await underTheWorker(page);
  await openAndKeep(page, mine.path, me.id);
  // The bet page's script is kept with the other assets it loaded.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const cache = await caches.open("fairshake-assets-v1");
        return (await cache.keys()).some((r) =>
          /\/bet-detail-[^/]*\.js$/.test(r.url),
        );
      }),
    )
    .toBe(true);
  await page.goto("/my-bets");
  const link = page.getByRole("link", { name: new RegExp(mine.title) });
  await untilHydrated(link);

  await context.setOffline(true);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${mine.path}$`));
  await expect(page.getByText(BANNER)).toBeVisible();
  await expect(page.getByRole("heading", { name: mine.title })).toBeVisible();
  await expect(page.getByRole("button", { name: "Logout" })).toBeDisabled();
  // Back returns to the page the link was tapped on.
  await page.goBack();
  await expect(page).toHaveURL(/\/my-bets$/);

  // From a live page again, a bet never opened: the offline page, not the
  // error page.
  await context.setOffline(false);
  await page.goto("/my-bets");
  const never = page.getByRole("link", { name: new RegExp(unopened.title) });
  await untilHydrated(never);
  await context.setOffline(true);
  await never.click();
  await expect(page).toHaveURL(new RegExp(`${unopened.path}$`));
  await expectOfflinePage(page);
});

test("a live page whose stream was refused waits while offline, never turning into its kept copy, and looks again once online", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await createPerson("offl");
  await newBet(baseURL!, me);
  await signIn(context, baseURL!, me.cookie);
  // The page's clock is faked so that the stream's retry (2 s after a
  // refusal) is reached without sleeping.
  await page.clock.install();
  await page.goto("/");
  await underTheWorker(page);
  // The first stream of My Bets is refused, as a server restarting does;
  // the next ones go through. The page's time stops before the refusal
  // reaches it: an installed clock still flows on its own, and on a loaded
  // machine the retry ran online before the test went offline, so the
  // stream was open again and the offline spell tested nothing (CI failed
  // so; a 3 s wait here did it every time).
  let refusals = 0;
  await context.route(/\/api\/events\b/, async (route) => {
    const from = await route.request().headerValue("referer");
    if (refusals > 0 || !from?.endsWith("/my-bets")) return route.continue();
    refusals++;
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 100);
    return route.fulfill({
      status: 503,
      headers: { "Retry-After": "2", "Content-Type": "application/json" },
      body: JSON.stringify({ error: "The server is restarting" }),
    });
  });
  // Offline only once the refusal has reached the page. (Its request is
  // not always "finished": the browser may drop a refused stream's body.)
  const refused = page.waitForResponse(
    (response) =>
      /\/api\/events\b/.test(response.url()) && response.status() === 503,
  );
  await openAndKeep(page, "/my-bets", me.id);
  await refused;
  expect(refusals).toBe(1);
  const dataLoads: string[] = [];
  page.on("request", (request) => {
    if (/\.data\b/.test(request.url())) dataLoads.push(request.url());
  });

  await context.setOffline(true);
  await page.clock.runFor(10_000);
  // A moment of real time for a reload, had the retry started one, to
  // reach the worker (it did before: the page became the kept copy).
  await page.waitForTimeout(1_000);
  // Offline, the retry waits: no reload was tried, so the page is still the
  // live one, not the service worker's read-only copy.
  expect(dataLoads).toEqual([]);
  await expect(page.getByText(BANNER)).toHaveCount(0);
  await expect(page.locator("html[data-offline-copy]")).toHaveCount(0);

  // Back online, the stream opens again and the page looks for what it
  // missed, as itself. The page may handle the `online` event only after
  // one run of the paused clock has ended, and its reload waits on a timer:
  // so the clock moves a second at each look until the reload is seen.
  await context.setOffline(false);
  await expect
    .poll(async () => {
      await page.clock.runFor(1_000);
      return dataLoads.length;
    })
    .toBeGreaterThan(0);
  expect(new URL(dataLoads[0]!).pathname).toMatch(/^\/my-bets/);
  await expect(page).toHaveURL(/\/my-bets$/);
  await expect(page.locator("html[data-offline-copy]")).toHaveCount(0);
});

/** A fresh person, signed in, with home and one of their bets kept by the worker. */
async function keepHomeAndABet(
  page: Page,
  context: BrowserContext,
  baseURL: string,
  prefix: string,
) {
  const me = await createPerson(prefix);
  const mine = await newBet(baseURL, me);
  await signIn(context, baseURL, me.cookie);
  await page.goto("/");
  await underTheWorker(page);
  await openAndKeep(page, mine.path, me.id);
  await openAndKeep(page, "/", me.id);
  return mine;
}

test("signing out while the network is gone still forgets every kept page", async ({
  page,
  context,
  baseURL,
}) => {
  const mine = await keepHomeAndABet(page, context, baseURL!, "offx");
  const logout = page.getByRole("button", { name: "Logout" });
  await untilHydrated(logout);

  // The sign-out never reaches the server; the worker forgets on the POST.
  await context.setOffline(true);
  await logout.click();
  // The failed sign-out reloads the page it was on: home, kept a moment ago,
  // is forgotten already.
  await expectOfflinePage(page);
  await expect.poll(() => keptPages(page)).toEqual([]);
  await page.goto(mine.path);
  await expectOfflinePage(page);
});

test("signing out forgets every kept page", async ({
  page,
  context,
  baseURL,
}) => {
  const mine = await keepHomeAndABet(page, context, baseURL!, "offs");

  const logout = page.getByRole("button", { name: "Logout" });
  await untilHydrated(logout);
  await logout.click();
  await expect(page).toHaveURL(/\/auth/);
  await expect.poll(() => keptPages(page)).toEqual([]);

  await context.setOffline(true);
  await page.goto(mine.path);
  await expectOfflinePage(page);
  await expect(page.getByText(mine.title)).toHaveCount(0);
  await page.goto("/");
  await expectOfflinePage(page);
});

test("another person signing in on the same browser: the previous person's kept pages are gone", async ({
  page,
  context,
  baseURL,
}) => {
  const first = await createPerson("offa");
  const next = await createPerson("offb");
  const bet = await newBet(baseURL!, first);
  await signIn(context, baseURL!, first.cookie);

  await page.goto("/");
  await underTheWorker(page);
  await openAndKeep(page, bet.path, first.id);
  await openAndKeep(page, "/", first.id);

  // The next person's session in the same browser, no sign-out between: the
  // first answer that names them forgets the first person's pages.
  await context.clearCookies();
  await signIn(context, baseURL!, next.cookie);
  await page.goto("/");
  await expect
    .poll(() => keptPages(page))
    .toEqual([`fairshake-pages-${next.id} /`]);

  await context.setOffline(true);
  await page.goto(bet.path);
  await expectOfflinePage(page);
  await expect(page.getByText(bet.title)).toHaveCount(0);
  // Their own home, kept a moment ago, is theirs to read.
  await page.goto("/");
  await expect(page.getByText(BANNER)).toBeVisible();
  await expect(
    page.getByRole("link", { name: `Profile of ${next.username}` }),
  ).toBeVisible();
});
