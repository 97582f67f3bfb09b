// Accessibility: axe on every page of the journeys, with JavaScript on and
// off (each test runs in both projects) → no serious or critical violation.
// And the main journeys by keyboard alone: create a bet, join one, pay.
import AxeBuilder from "@axe-core/playwright";
import {
  request as playwrightRequest,
  type APIRequestContext,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import {
  expect,
  jsEnabled,
  openEditProfile,
  signIn,
  test as baseTest,
  uniqueUsername,
} from "./fixtures";

type Someone = {
  id: number;
  username: string;
  cookie: string;
  api: APIRequestContext;
};

async function someone(baseURL: string, prefix = "ally"): Promise<Someone> {
  const api = await playwrightRequest.newContext({ baseURL });
  const username = uniqueUsername(prefix);
  const res = await api.post("/api/register", {
    data: { username, email: `${username}@example.com`, password: "secret123" },
  });
  expect(res.status(), await res.text()).toBe(201);
  const cookie =
    res
      .headersArray()
      .find((h) => h.name.toLowerCase() === "set-cookie")
      ?.value.split(";")[0] ?? "";
  return { id: (await res.json()).id, username, cookie, api };
}

async function betBy(
  who: Someone,
  over: Record<string, unknown> = {},
): Promise<{ id: number; code: string }> {
  const res = await who.api.post("/api/bets", {
    data: {
      title: `Axe bet ${uniqueUsername("t")}`,
      description: "Whoever loses buys lunch.",
      amount: 20,
      deadline: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      visibility: "public",
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

async function joinAs(who: Someone, bet: { id: number; code: string }) {
  expect((await who.api.get(`/api/bets/code/${bet.code}`)).status()).toBe(200);
  const res = await who.api.post(`/api/bets/${bet.id}/join`, { data: {} });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * The serious and critical violations of WCAG 2.1 A/AA on this page.
 * `setLegacyMode` runs axe in the page itself (same-origin frames included);
 * the default merges per-frame results in a second, blank page, which tripled
 * each check's time here and matters only for cross-origin frames (the pages
 * have none). Only violations are collected: they are all that is asserted.
 */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] })
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
}

/** Checks a page's server HTML as a browser without JavaScript shows it. */
type StaticChecker = (html: string, url: string) => Promise<string[]>;

/**
 * axe runs inside the page, which a page without JavaScript cannot do. So
 * the server's HTML (exactly what a no-JS browser shows: scripts never run)
 * is loaded into a scratch page whose scripts are all blocked, and checked
 * there. Meta refreshes are dropped so the page under test stays put. One
 * scratch page serves a worker's checks: a context per check cost more than
 * the check.
 */
const test = baseTest.extend<object, { staticViolations: StaticChecker }>({
  staticViolations: [
    async ({ browser }, use) => {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        javaScriptEnabled: true,
      });
      let body = "";
      await context.route("**/*", (route) => {
        const req = route.request();
        if (req.resourceType() === "document")
          return route.fulfill({
            body,
            contentType: "text/html; charset=utf-8",
          });
        if (req.resourceType() === "script") return route.abort();
        return route.continue();
      });
      const scratch = await context.newPage();
      await use(async (html, url) => {
        body = html
          .replace(/<script\b[\s\S]*?<\/script>/gi, "")
          .replace(/<link[^>]+rel="modulepreload"[^>]*>/gi, "")
          .replace(/<meta[^>]+http-equiv="refresh"[^>]*>/gi, "");
        await scratch.goto(url);
        return await violations(scratch);
      });
      await context.close();
    },
    { scope: "worker" },
  ],
});

/** The live page with JavaScript; its server HTML without. */
async function expectAccessible(
  page: Page,
  staticViolations: StaticChecker,
  testInfo: TestInfo,
  what: string,
  opts: { html?: string; url?: string } = {},
) {
  const url = opts.url ?? page.url();
  const bad =
    jsEnabled(testInfo) && opts.html === undefined
      ? await violations(page)
      : await staticViolations(
          opts.html ?? (await (await page.request.get(url)).text()),
          url,
        );
  expect(bad, `${what}: ${url}`).toEqual([]);
}

/** A bet `me` created, `other` joined, and `me` conceded: `me` owes. */
async function lostBy(me: Someone, other: Someone) {
  const bet = await betBy(me);
  await joinAs(other, bet);
  const res = await me.api.post(`/api/bets/${bet.id}/settle`, {
    data: { winnerId: other.id },
  });
  expect(res.status(), await res.text()).toBe(200);
  return bet;
}

type Bet = { id: number; code: string };
type World = {
  me: Someone;
  other: Someone;
  mine: Bet;
  theirs: Bet;
  active: Bet;
  /** `other` proposed themself as the winner; `me` may approve or reject. */
  proposed: Bet;
  /** `me` lost and has not paid yet. */
  owed: Bet;
};

/** Every screen of the journeys; `as` says who looks at it. */
const PAGES: {
  name: string;
  path: (w: World) => string;
  as: "me" | "anonymous";
  refreshes?: boolean;
}[] = [
  { name: "login", path: () => "/auth", as: "anonymous" },
  { name: "register", path: () => "/auth?tab=register", as: "anonymous" },
  { name: "fees help", path: () => "/help/fees", as: "anonymous" },
  {
    name: "fee calculator",
    path: () => "/help/fees?tab=calculator&amount=15",
    as: "anonymous",
  },
  { name: "fees FAQ", path: () => "/help/fees?tab=faq", as: "anonymous" },
  {
    name: "share page",
    path: (w) => `/share/${w.theirs.id}`,
    as: "anonymous",
    refreshes: true,
  },
  { name: "not found", path: () => "/no/such/page", as: "anonymous" },
  { name: "home", path: () => "/", as: "me" },
  { name: "discover", path: () => "/search", as: "me" },
  { name: "discover friends", path: () => "/search?tab=friends", as: "me" },
  { name: "create a bet", path: () => "/create-bet", as: "me" },
  { name: "my bets", path: () => "/my-bets", as: "me" },
  { name: "my bets: joined", path: () => "/my-bets?tab=joined", as: "me" },
  {
    name: "my bets: completed",
    path: () => "/my-bets?tab=completed",
    as: "me",
  },
  { name: "my bet", path: (w) => `/bet/${w.mine.id}`, as: "me" },
  { name: "someone's bet", path: (w) => `/bet/${w.theirs.id}`, as: "me" },
  { name: "an active bet", path: (w) => `/bet/${w.active.id}`, as: "me" },
  { name: "edit a bet", path: (w) => `/bet/${w.mine.id}/edit`, as: "me" },
  {
    name: "delete confirmation",
    path: (w) => `/bet/${w.mine.id}/edit?confirm=delete`,
    as: "me",
  },
  { name: "join by code", path: (w) => `/join/${w.theirs.code}`, as: "me" },
  { name: "help", path: () => "/help", as: "anonymous" },
  { name: "friends", path: () => "/friends", as: "me" },
  { name: "friend requests", path: () => "/friends?tab=requests", as: "me" },
  { name: "add friends", path: () => "/friends?tab=add", as: "me" },
  { name: "profile", path: () => "/profile", as: "me" },
  { name: "edit profile", path: () => "/profile/edit", as: "me" },
  { name: "security", path: () => "/profile/security", as: "me" },
  { name: "forgot password", path: () => "/forgot-password", as: "anonymous" },
  {
    name: "reset password (a dead link)",
    path: () => "/reset-password?token=nope",
    as: "anonymous",
  },
  { name: "your data", path: () => "/profile/data", as: "me" },
  { name: "activity", path: () => "/notifications", as: "me" },
  {
    name: "finances",
    path: () => "/notifications?tab=finances",
    as: "me",
  },
  { name: "financial history", path: () => "/financial-history", as: "me" },
  { name: "settle a bet", path: (w) => `/settle-bet/${w.active.id}`, as: "me" },
  {
    name: "propose a settlement",
    path: (w) => `/propose-settlement/${w.active.id}`,
    as: "me",
  },
  {
    name: "approve a settlement",
    path: (w) => `/settlements/${w.proposed.id}/approve`,
    as: "me",
  },
  {
    name: "reject a settlement",
    path: (w) => `/settlements/${w.proposed.id}/reject`,
    as: "me",
  },
  { name: "a bet I lost", path: (w) => `/bet/${w.owed.id}`, as: "me" },
  { name: "payment summary", path: (w) => `/payment/${w.owed.id}`, as: "me" },
  { name: "checkout", path: (w) => `/checkout/${w.owed.id}`, as: "me" },
];

test.describe("axe", () => {
  let world: World;
  test.beforeAll(async ({ baseURL }) => {
    const me = await someone(baseURL!, "axme");
    const other = await someone(baseURL!, "axot");
    const active = await betBy(me);
    await joinAs(other, active);
    const proposed = await betBy(me);
    await joinAs(other, proposed);
    const proposal = await other.api.post(
      `/api/bets/${proposed.id}/propose-settlement`,
      { data: { winnerId: other.id, settlementNotes: "I called it." } },
    );
    expect(proposal.status(), await proposal.text()).toBe(201);
    world = {
      me,
      other,
      mine: await betBy(me, { visibility: "private" }),
      theirs: await betBy(other),
      active,
      proposed,
      owed: await lostBy(me, other),
    };
  });

  for (const screen of PAGES) {
    test(`${screen.name} has no serious or critical violations`, async ({
      page,
      context,
      baseURL,
      staticViolations,
    }, testInfo) => {
      if (screen.as === "me") await signIn(context, baseURL!, world.me.cookie);
      const path = screen.path(world);
      if (screen.refreshes || !jsEnabled(testInfo)) {
        // Without JavaScript the server's HTML is what is checked, so it is
        // fetched once rather than also shown in the no-JS page. A page that
        // refreshes is checked before the refresh moves on
        // (docs/product-rules.md#private-bets).
        const res = await page.request.get(path);
        if (screen.refreshes) expect(res.status()).toBe(200);
        else expect(res.status()).toBeLessThan(500);
        await expectAccessible(page, staticViolations, testInfo, screen.name, {
          html: await res.text(),
          url: res.url(),
        });
        return;
      }
      const res = await page.goto(path);
      expect(res?.status()).toBeLessThan(500);
      await expectAccessible(page, staticViolations, testInfo, screen.name);
    });
  }

  test("open dialogs and disclosures are accessible too", async ({
    page,
    context,
    baseURL,
    staticViolations,
  }, testInfo) => {
    await signIn(context, baseURL!, world.me.cookie);
    await page.goto("/profile");
    await openEditProfile(page, testInfo);
    await expectAccessible(
      page,
      staticViolations,
      testInfo,
      "edit profile dialog",
    );
    await page.goto(`/bet/${world.mine.id}`);
    const share = page
      .locator("details")
      .filter({ has: page.locator("summary") })
      .first();
    await share.locator("summary").click();
    await expect(share).toHaveAttribute("open", "");
    if (jsEnabled(testInfo))
      await expectAccessible(
        page,
        staticViolations,
        testInfo,
        "share panel open",
      );
  });

  test("the checker itself finds a violation (it can fail)", async ({
    staticViolations,
    baseURL,
  }) => {
    const bad = await staticViolations(
      '<!doctype html><html><body><main><img src="/x.png"><button></button></main></body></html>',
      `${baseURL}/healthz`,
    );
    expect(bad.join("\n")).toMatch(/image-alt|button-name|html-has-lang/);
  });

  test("a form refused with errors is still accessible", async ({
    page,
    context,
    baseURL,
    staticViolations,
  }, testInfo) => {
    await signIn(context, baseURL!, world.me.cookie);
    if (jsEnabled(testInfo)) {
      await page.goto("/create-bet");
      const form = page.getByRole("form", { name: "Create a bet" });
      await form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
      await page.getByLabel("Title").fill("");
      await page.getByRole("button", { name: "Create Bet" }).click();
      await expect(
        page.getByText("Title must be at least 2 characters."),
      ).toBeVisible();
      await expectAccessible(
        page,
        staticViolations,
        testInfo,
        "create with errors",
      );
      return;
    }
    // Without JavaScript the refusal is the server's page for the POST.
    const res = await page.request.post("/create-bet", {
      form: { title: "", description: "", amount: "0", visibility: "public" },
    });
    expect(res.status()).toBe(400);
    const html = await res.text();
    expect(html).toContain("Title must be at least 2 characters.");
    await expectAccessible(
      page,
      staticViolations,
      testInfo,
      "create with errors",
      {
        html,
        url: `${baseURL}/create-bet`,
      },
    );
  });
});

// --- Keyboard only ---------------------------------------------------------------

/** Presses Tab until the locator has focus: keyboard only, like a person would. */
async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`could not reach ${target} with Tab`);
}

test.describe("keyboard only", () => {
  test("create a bet", async ({ page, context, baseURL }) => {
    const me = await someone(baseURL!, "kbc");
    await signIn(context, baseURL!, me.cookie);
    await page.goto("/create-bet");
    await tabTo(page, page.getByLabel("Title"));
    await page.keyboard.type("Keyboard bet");
    await tabTo(page, page.getByLabel("Description"));
    await page.keyboard.type("Made without a mouse.");
    await tabTo(page, page.getByLabel("Wager amount ($)"));
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("15");
    await tabTo(page, page.getByRole("button", { name: "Create Bet" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/bet\/\d+$/);
    await expect(
      page.getByRole("heading", { name: "Keyboard bet" }),
    ).toBeVisible();
    await expect(page.getByText("Bet created!").first()).toBeVisible();
  });

  test("pay a bet I lost (demo checkout)", async ({
    page,
    context,
    baseURL,
  }) => {
    const me = await someone(baseURL!, "kbp");
    const other = await someone(baseURL!, "kbw");
    const bet = await lostBy(me, other);
    await signIn(context, baseURL!, me.cookie);
    await page.goto(`/checkout/${bet.id}`);
    await tabTo(page, page.getByLabel("Card number"));
    await page.keyboard.type("4242 4242 4242 4242");
    await tabTo(page, page.getByLabel("Expiry"));
    await page.keyboard.type("12/40");
    await tabTo(page, page.getByLabel("CVC"));
    await page.keyboard.type("123");
    await tabTo(page, page.getByRole("button", { name: /^Pay \$/ }));
    await page.keyboard.press("Enter");
    await expect(page.getByText("Payment successful").first()).toBeVisible();
    await expect(page).toHaveURL(/\/my-bets$/);
    const settlement = await me.api.get(`/api/settlements/${bet.id}`);
    expect((await settlement.json()).paymentStatus).toBe("completed");
  });

  test("join a bet", async ({ page, context, baseURL }) => {
    const other = await someone(baseURL!, "kbo");
    const bet = await betBy(other, { title: "Join me by keyboard" });
    const me = await someone(baseURL!, "kbj");
    await signIn(context, baseURL!, me.cookie);
    await page.goto(`/bet/${bet.id}`);
    const join = page.getByRole("button", { name: /^Join/ });
    await tabTo(page, join);
    await page.keyboard.press("Enter");
    await expect(page.getByText("You joined the bet!").first()).toBeVisible();
    const read = await me.api.get(`/api/bets/${bet.id}`);
    expect((await read.json()).participantIds).toContain(me.id);
  });
});
