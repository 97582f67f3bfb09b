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
} from "./fixtures";

test("a tap on Join as soon as it shows, on a CPU six times slower, joins once", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "hydration only runs with JavaScript");
  const creator = await createPerson("busyc");
  const joiner = await createPerson("busyj");
  const title = `Busy phone ${uniqueUsername("t")}`;
  const bet = (await apiPost(baseURL!, creator, "/api/bets", {
    title,
    description: "Whoever loses buys lunch.",
    amount: 12,
    deadline: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    visibility: "public",
  })) as { id: number };
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
