// The offline queue under faults and against a planted entry
// (docs/product-rules.md#acting-offline): a send answered 503 (PostgreSQL
// stopped while the queue sends) keeps the action waiting and it is made
// once when the database is back; the owner check failing is retried, and
// so is the sender's code failing to load as the line comes back; a
// head whose send never answers goes to 'Not sent' and the rest go on; no
// password is ever kept in the browser's storage; an entry for a route that
// does not wait (paying) is never sent. Waits are the page's own timers,
// moved on by Playwright's clock, never slept through.
import type { BrowserContext, Page } from "@playwright/test";
import {
  createDatabase,
  startCluster,
  type Cluster,
} from "../../scripts/lib/postgres-cluster.mjs";
import { startServer, type TestServer } from "../support/server";
import {
  apiPost,
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
  uniqueUsername,
  untilHydrated,
} from "./fixtures";

const SAVED = "Saved on this phone — it will be sent when you're back online.";
const NOT_SENT = "Not sent — check your connection and try again.";
const BROKEN = "An unexpected error occurred";

// eslint-disable-next-line no-empty-pattern -- Playwright needs the pattern
test.beforeEach(({}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "without JavaScript nothing is kept");
});

function betBody(amount = 15) {
  return {
    title: `Faults ${uniqueUsername("b")}`,
    description: "The database restarts on the way.",
    amount,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
  };
}

async function openBet(baseURL: string) {
  const creator = await createPerson("fc", baseURL);
  const bet = (await apiPost(baseURL, creator, "/api/bets", betBody())) as {
    id: number;
    title: string;
  };
  return { creator, bet };
}

async function participants(page: Page, baseURL: string, betId: number) {
  const res = await page.request.get(`${baseURL}/api/bets/${betId}`);
  const bet = (await res.json()) as { participantIds: number[] };
  return [...bet.participantIds].sort((a, b) => a - b);
}

type Kept = {
  key: string;
  action: string;
  fields: [string, unknown][];
  state: string;
  message?: string;
  notBefore?: number;
};

/** Every action the queue keeps in this page's IndexedDB, as stored. */
function keptInBrowser(page: Page) {
  return page.evaluate(
    () =>
      new Promise<Kept[]>((resolve, reject) => {
        const open = indexedDB.open("fairshake-offline", 1);
        open.onupgradeneeded = () =>
          open.result.createObjectStore("actions", { keyPath: "key" });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result
            .transaction("actions", "readonly")
            .objectStore("actions")
            .getAll();
          all.onsuccess = () => {
            open.result.close();
            resolve(all.result as Kept[]);
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

/**
 * The form POSTs to `path` that reach the server, by key. While `line.up`
 * is false they fail as offline; `hold` (set by a test) may answer one
 * itself instead of letting it through.
 */
async function watchSends(context: BrowserContext, path: string) {
  const line = { up: true };
  const keys: string[] = [];
  await context.route(`**${path}.data*`, async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    if (!line.up) return route.abort("internetdisconnected");
    keys.push(
      new URLSearchParams(request.postData() ?? "").get("idempotencyKey") ?? "",
    );
    return route.continue();
  });
  return { keys, line };
}

async function setLine(
  context: BrowserContext,
  line: { up: boolean },
  up: boolean,
) {
  if (up) line.up = true;
  await context.setOffline(!up);
  if (!up) line.up = false;
}

async function joinOffline(
  page: Page,
  context: BrowserContext,
  url: string,
  line: { up: boolean },
) {
  await page.goto(url);
  const join = page.getByRole("button", { name: /^Join Bet for/ });
  await untilHydrated(join);
  await setLine(context, line, false);
  await join.click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(
    page.getByRole("button", { name: "1 waiting to send" }),
  ).toBeVisible();
}

/**
 * Moves the page's clock on by `ms` at each poll until `check` holds. Where
 * the test then reads a toast, `ms` stays under the toast's 5 s: a poll that
 * jumped further just after the answer came would close the toast before
 * the test could read it (seen on a busy machine).
 */
async function advanceUntil(
  page: Page,
  ms: number,
  check: () => Promise<boolean>,
  timeout = 15_000,
) {
  await expect
    .poll(
      async () => {
        if (await check()) return true;
        await page.clock.fastForward(ms);
        return check();
      },
      { timeout, intervals: [100, 250] },
    )
    .toBe(true);
}

test.describe("PostgreSQL stopped while the queue sends", () => {
  test.describe.configure({ mode: "serial" });
  let cluster: Cluster | undefined;
  let server: TestServer | undefined;
  // eslint-disable-next-line no-empty-pattern -- Playwright needs the pattern
  test.beforeAll(async ({}, testInfo) => {
    if (!jsEnabled(testInfo)) return;
    cluster = await startCluster();
    const url = await createDatabase(cluster.adminUrl, "queue");
    server = await startServer({ DATABASE_URL: url });
  });
  test.afterAll(async () => {
    await server?.stop();
    cluster?.stop();
  });

  test("a join answered 503 keeps waiting, the page stays, and it is made once when the database is back", async ({
    page,
    context,
  }) => {
    const base = server!.url;
    const { creator, bet } = await openBet(base);
    const me = await createPerson("fj", base);
    await signIn(context, base, me.cookie);
    await page.clock.install();
    const sends = await watchSends(context, `/bet/${bet.id}`);
    // PostgreSQL stops as the queue's first send goes (after its owner check).
    let stopped = false;
    await context.route(`**/bet/${bet.id}.data*`, async (route) => {
      if (route.request().method() === "POST" && sends.line.up && !stopped) {
        stopped = true;
        cluster!.pause();
      }
      return route.fallback();
    });
    await joinOffline(page, context, `${base}/bet/${bet.id}`, sends.line);
    expect(sends.keys, "nothing reached the server offline").toEqual([]);

    const answered = page.waitForResponse(
      (res) =>
        res.url().includes(`/bet/${bet.id}.data`) &&
        res.request().method() === "POST",
    );
    await setLine(context, sends.line, true);
    expect((await answered).status()).toBe(503);
    // Still waiting, not before 5 s from now; the page is still the bet.
    await expect
      .poll(async () => (await keptInBrowser(page)).map((a) => a.state))
      .toEqual(["waiting"]);
    const [waiting] = await keptInBrowser(page);
    expect(typeof waiting!.notBefore).toBe("number");
    await expect(page.getByRole("heading", { name: bet.title })).toBeVisible();
    await expect(page.getByText(BROKEN)).toHaveCount(0);
    await expect(
      page.getByRole("button", { name: "1 waiting to send" }),
    ).toBeVisible();

    cluster!.resume();
    await expect
      .poll(async () => (await fetch(`${base}/healthz`)).status)
      .toBe(200);
    await advanceUntil(page, 1_000, async () =>
      (await participants(page, base, bet.id)).includes(me.id),
    );
    await expect(page.getByText("You joined the bet!").first()).toBeVisible();
    await expect(
      page.getByRole("button", { name: /waiting to send/ }),
    ).toHaveCount(0);
    await expect(page.getByText(BROKEN)).toHaveCount(0);
    // Made once, every send under the key it was taken with.
    expect(await participants(page, base, bet.id)).toEqual(
      [creator.id, me.id].sort((a, b) => a - b),
    );
    expect(sends.keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sends.keys).size).toBe(1);
  });
});

test("the owner check failing (an outage) is tried again, and the action then goes", async ({
  page,
  context,
  baseURL,
}) => {
  const { bet } = await openBet(baseURL!);
  const me = await createPerson("fo");
  await signIn(context, baseURL!, me.cookie);
  await page.clock.install();
  const sends = await watchSends(context, `/bet/${bet.id}`);
  await joinOffline(page, context, `/bet/${bet.id}`, sends.line);
  let refusals = 0;
  await page.route("**/api/user", (route) => {
    if (route.request().method() !== "GET" || refusals > 0)
      return route.fallback();
    refusals += 1;
    return route.fulfill({
      status: 503,
      headers: { "Retry-After": "5", "Content-Type": "application/json" },
      body: JSON.stringify({
        error: "Fairshake is briefly unavailable. Please try again.",
      }),
    });
  });
  const refused = page.waitForResponse(
    (res) => res.url().endsWith("/api/user") && res.status() === 503,
  );
  await setLine(context, sends.line, true);
  await refused;
  await advanceUntil(page, 1_000, async () =>
    (await participants(page, baseURL!, bet.id)).includes(me.id),
  );
  await expect(page.getByText("You joined the bet!").first()).toBeVisible();
  expect(sends.keys).toHaveLength(1);
});

test("a send answered 503 with Retry-After waits as long as the server asks", async ({
  page,
  context,
  baseURL,
}) => {
  const { bet } = await openBet(baseURL!);
  const me = await createPerson("fr");
  await signIn(context, baseURL!, me.cookie);
  await page.clock.install();
  const sends = await watchSends(context, `/bet/${bet.id}`);
  let answered = false;
  await context.route(`**/bet/${bet.id}.data*`, (route) => {
    if (route.request().method() !== "POST" || !sends.line.up || answered)
      return route.fallback();
    answered = true;
    return route.fulfill({
      status: 503,
      headers: { "Retry-After": "60", "Content-Type": "text/plain" },
      body: "Fairshake is briefly unavailable. Please try again.",
    });
  });
  await joinOffline(page, context, `/bet/${bet.id}`, sends.line);
  await setLine(context, sends.line, true);
  await expect
    .poll(async () => (await keptInBrowser(page))[0]?.notBefore ?? 0)
    .toBeGreaterThan(0);
  const [kept] = await keptInBrowser(page);
  const wait = await page.evaluate((at) => at - Date.now(), kept!.notBefore!);
  expect(wait).toBeGreaterThan(50_000);
  await expect(page.getByText(BROKEN)).toHaveCount(0);
  await advanceUntil(page, 61_000, async () =>
    (await participants(page, baseURL!, bet.id)).includes(me.id),
  );
  expect(sends.keys).toHaveLength(1);
});

test("the sender's code failing to load as the line comes back is asked for again, and the action goes", async ({
  page,
  context,
  baseURL,
}) => {
  const { bet } = await openBet(baseURL!);
  const me = await createPerson("fl");
  await signIn(context, baseURL!, me.cookie);
  await page.clock.install();
  const sends = await watchSends(context, `/bet/${bet.id}`);
  // The browser says online before its first request gets through: the
  // sender's code is refused once, as the line comes back.
  let refusedOnce = false;
  const asked: string[] = [];
  await context.route("**/assets/queue-*.js", (route) => {
    asked.push(route.request().url());
    if (!sends.line.up || refusedOnce) return route.fallback();
    refusedOnce = true;
    return route.abort("internetdisconnected");
  });
  await joinOffline(page, context, `/bet/${bet.id}`, sends.line);
  expect(asked, "the sender's code is not asked for offline").toEqual([]);
  await setLine(context, sends.line, true);
  await expect.poll(() => refusedOnce).toBe(true);
  await advanceUntil(page, 1_000, async () =>
    (await participants(page, baseURL!, bet.id)).includes(me.id),
  );
  await expect(page.getByText("You joined the bet!").first()).toBeVisible();
  expect(asked.length).toBeGreaterThanOrEqual(2);
  expect(sends.keys).toHaveLength(1);
});

test("a head whose send never answers goes to Not sent after its tries, and the next goes", async ({
  page,
  context,
  baseURL,
}) => {
  const first = await openBet(baseURL!);
  const second = await openBet(baseURL!);
  const me = await createPerson("fh");
  await signIn(context, baseURL!, me.cookie);
  await page.clock.install();
  // Both joins fail on the network while they are taken, so both are kept.
  let hang = false;
  const hung: string[] = [];
  await context.route(`**/bet/${first.bet.id}.data*`, (route) => {
    if (route.request().method() !== "POST") return route.continue();
    if (!hang) return route.abort("internetdisconnected");
    hung.push(route.request().url());
    return new Promise<void>(() => {}); // never answered
  });
  const seconds = await watchSends(context, `/bet/${second.bet.id}`);
  seconds.line.up = false;
  for (const bet of [first.bet, second.bet]) {
    await page.goto(`/bet/${bet.id}`);
    const join = page.getByRole("button", { name: /^Join Bet for/ });
    await untilHydrated(join);
    await join.click();
    await expect(page.getByText(SAVED)).toBeVisible();
  }
  await expect(
    page.getByRole("button", { name: "2 waiting to send" }),
  ).toBeVisible();

  hang = true;
  seconds.line.up = true;
  await page.goto("/my-bets"); // a page load sends what waits
  await advanceUntil(
    page,
    5 * 60_000,
    async () =>
      (await participants(page, baseURL!, second.bet.id)).includes(me.id),
    40_000,
  );
  expect(hung.length).toBeGreaterThan(1);
  await expect(page.getByRole("button", { name: "1 not sent" })).toBeVisible();
  expect(await participants(page, baseURL!, first.bet.id)).not.toContain(me.id);
  expect(seconds.keys).toHaveLength(1);
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await context.unrouteAll({ behavior: "ignoreErrors" });
});

test("no password is kept: an email change offline is not kept, other forms keep no password field", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await createPerson("fp");
  await signIn(context, baseURL!, me.cookie);
  const noSecret = async () => {
    for (const action of await keptInBrowser(page)) {
      for (const [name, value] of action.fields) {
        expect(name, action.action).not.toMatch(/password/i);
        expect(value, action.action).not.toBe(me.password);
      }
    }
  };

  // An email change needs the password: never kept, 'Not sent' as paying is.
  await page.goto("/profile/edit");
  const save = page.getByRole("button", { name: "Save changes" });
  await untilHydrated(save);
  await page.getByLabel("Email").fill(`${uniqueUsername("n")}@example.com`);
  await page.getByLabel("Current password").fill(me.password);
  await context.setOffline(true);
  await save.click();
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  await expect(page.getByText(SAVED)).toHaveCount(0);
  expect(await keptInBrowser(page)).toEqual([]);
  await context.setOffline(false);

  // A username change is kept, without the (empty) password field.
  await page.goto("/profile/edit");
  await untilHydrated(save);
  await page.getByLabel("Username").fill(uniqueUsername("u"));
  await context.setOffline(true);
  await save.click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect.poll(async () => (await keptInBrowser(page)).length).toBe(1);
  await noSecret();

  // The other queueable forms this person can reach: create a bet, join.
  // Their sends fail from before the phone is back online, so that the
  // queue cannot send the username change meanwhile (it did, on a busy
  // machine, and two were left).
  await context.route("**/*.data*", (r) =>
    r.request().method() === "POST"
      ? r.abort("internetdisconnected")
      : r.continue(),
  );
  await context.setOffline(false);
  await page.goto("/create-bet");
  await page.getByLabel("Title").fill(`Kept ${uniqueUsername("k")}`);
  await page.getByLabel("Description").fill("Nothing secret in here.");
  await page
    .getByLabel("Deadline date")
    .fill(new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10));
  await page.getByLabel("Wager amount ($)").fill("5");
  const create = page.getByRole("button", { name: "Create Bet" });
  await untilHydrated(create);
  await create.click();
  await expect(page.getByText(SAVED)).toBeVisible();
  const { bet } = await openBet(baseURL!);
  await page.goto(`/bet/${bet.id}`);
  const join = page.getByRole("button", { name: /^Join Bet for/ });
  await untilHydrated(join);
  await join.click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect.poll(async () => (await keptInBrowser(page)).length).toBe(3);
  await noSecret();
  await context.unrouteAll({ behavior: "ignoreErrors" });
});

test("an entry planted for a route that does not wait (paying) is never sent", async ({
  page,
  context,
  baseURL,
}) => {
  const a = await createPerson("fa");
  const b = await createPerson("fb");
  const bet = (await apiPost(baseURL!, a, "/api/bets", betBody(20))) as {
    id: number;
  };
  await apiPost(baseURL!, b, `/api/bets/${bet.id}/join`);
  await apiPost(baseURL!, b, `/api/bets/${bet.id}/propose-settlement`, {
    winnerId: b.id,
  });
  await apiPost(baseURL!, a, `/api/settlements/${bet.id}/approve`);
  await signIn(context, baseURL!, a.cookie);
  const payments = await watchSends(context, `/checkout/${bet.id}`);
  await page.goto("/profile");
  await untilHydrated(page.getByRole("link", { name: "Fairshake home" }));
  // Script on the origin plants an entry as the queue would keep it.
  await page.evaluate(
    ({ userId, betId }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("fairshake-offline", 1);
        open.onupgradeneeded = () =>
          open.result.createObjectStore("actions", { keyPath: "key" });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction("actions", "readwrite");
          tx.objectStore("actions").put({
            key: "plantedcheckoutkey0000",
            userId,
            action: `/checkout/${betId}`,
            encType: "application/x-www-form-urlencoded",
            fields: [
              ["cardNumber", "4242 4242 4242 4242"],
              ["expiry", "12/40"],
              ["cvc", "123"],
              ["js", "1"],
            ],
            page: "/profile",
            what: "Form",
            about: "Planted",
            createdAt: Date.now(),
            state: "waiting",
          });
          tx.oncomplete = () => {
            open.result.close();
            localStorage.setItem(
              `fairshake-offline-queue:${userId}`,
              JSON.stringify({ waiting: 1, refused: 0 }),
            );
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { userId: a.id, betId: bet.id },
  );
  await page.goto("/my-bets"); // a page load sends what waits
  await expect(page.getByRole("button", { name: "1 not sent" })).toBeVisible();
  expect(payments.keys, "no payment reached the server").toEqual([]);
  await page.goto(`/checkout/${bet.id}`);
  await expect(page.getByRole("button", { name: "Pay $20.00" })).toBeVisible();
});
