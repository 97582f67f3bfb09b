// A tap is never lost on a busy slow phone (docs/product-rules.md#shaky-connections):
// the bet page's Join button is a plain form, so a tap before the page has
// hydrated is the browser's own post, and a tap after it the router's; in
// either case the join is made once. The CPU is slowed six times through
// the DevTools protocol so hydration is still running when the tap lands.
// Runs in the "js" project (the no-JS project has no hydration to race).
import { request as playwrightRequest } from "@playwright/test";
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

/** A public bet in dollars, open for three days, made through the API. */
async function openBet(
  baseURL: string,
  creator: { cookie: string },
  title: string,
  amount: number,
) {
  return (await apiPost(baseURL, creator, "/api/bets", {
    title,
    description: "Whoever loses buys lunch.",
    amount,
    deadline: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    visibility: "public",
  })) as { id: number };
}

test("a tap on Join as soon as it shows, on a CPU six times slower, joins once", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "hydration only runs with JavaScript");
  const creator = await createPerson("busyc");
  const joiner = await createPerson("busyj");
  const title = `Busy phone ${uniqueUsername("t")}`;
  const bet = await openBet(baseURL!, creator, title, 12);
  await signIn(context, baseURL!, joiner.cookie);

  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  const joins: number[] = [];
  page.on("response", (response) => {
    if (response.request().method() === "POST") joins.push(response.status());
  });

  await page.goto(`/bet/${bet.id}`, { waitUntil: "commit" });
  const join = page.getByRole("button", { name: /Join Bet/ });
  await join.waitFor({ state: "visible" });
  await join.click({ noWaitAfter: true });
  await expect(page.getByText("2/2 participants")).toBeVisible({
    timeout: 30_000,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });

  // One post, answered as a join (a redirect without JavaScript, a data
  // answer with it), and the bet holds exactly the two people.
  expect(joins).toHaveLength(1);
  expect(joins[0]).toBeLessThan(400);
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Cookie: creator.cookie },
  });
  const res = await api.get(`/api/bets/${bet.id}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { participantIds: number[] };
  expect(body.participantIds.sort()).toEqual([creator.id, joiner.id].sort());
  const activity = (await (await api.get("/api/activity")).json()) as {
    type: string;
    betId: number;
  }[];
  expect(
    activity.filter((a) => a.betId === bet.id && a.type === "bet_joined"),
  ).toHaveLength(1);
  await api.dispose();
});

// The first Intl number or date formatter a page builds loads the browser's
// locale data on the main thread: 25–35 ms on this machine, four times that
// on a slow phone, in the middle of hydration. The pages in English with
// dollars build none while they load: amounts are written by hand
// (docs/decisions/archive/1055-main-thread-at-the-floor.md) and counts with
// plural forms are worded by the loader
// (docs/decisions/1169-counts-worded-by-the-loader.md).
test("the hydrated pages build no Intl number or date formatter while they load", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "hydration only runs with JavaScript");
  const me = await createPerson("intl");
  const bet = await openBet(
    baseURL!,
    me,
    `Formatters ${uniqueUsername("t")}`,
    1234,
  );
  // Joined, so the bet is active: the home page counts it in a plural.
  const friend = await createPerson("intlj");
  await apiPost(baseURL!, friend, `/api/bets/${bet.id}/join`);
  // A friend and a request: the friends screens word each person's wins
  // and losses in plurals.
  await apiPost(baseURL!, me, "/api/friends", { friendId: friend.id });
  await apiPost(baseURL!, friend, "/api/friends/accept", { friendId: me.id });
  const asking = await createPerson("intlr");
  await apiPost(baseURL!, asking, "/api/friends", { friendId: me.id });
  await signIn(context, baseURL!, me.cookie);
  await page.addInitScript(() => {
    const built: string[] = [];
    Object.assign(window, { __formattersBuilt: built });
    for (const name of ["NumberFormat", "DateTimeFormat"] as const) {
      const original = Intl[name];
      const counted = function (...args: unknown[]) {
        built.push(`${name} ${new Error().stack}`);
        return new (original as new (...a: unknown[]) => object)(...args);
      };
      counted.prototype = original.prototype;
      Object.assign(Intl, { [name]: counted });
    }
  });
  for (const path of [
    "/",
    "/my-bets",
    `/bet/${bet.id}`,
    "/create-bet",
    "/friends",
    "/friends?tab=requests",
    `/friends?tab=add&q=${friend.username}`,
  ]) {
    await page.goto(path);
    await untilHydrated(page.getByRole("heading", { level: 1 }));
    // The effects and the idle work after hydration run too.
    await page.evaluate(
      () => new Promise((done) => requestIdleCallback(done, { timeout: 2000 })),
    );
    const built = await page.evaluate(
      () =>
        (window as unknown as { __formattersBuilt: string[] })
          .__formattersBuilt,
    );
    expect(built, `${path} built an Intl formatter`).toEqual([]);
  }
  // The words the loaders wrote are the ones the pages show.
  await page.goto("/");
  await expect(page.getByText("1 active bet", { exact: true })).toBeVisible();
  await page.goto("/friends");
  await expect(page.getByText("0 wins · 0 losses").first()).toBeVisible();
});
