// Acting offline (docs/product-rules.md#shaky-connections): a write the
// network could not carry is kept on the phone, counted in the header, and
// sent by itself, once, when the connection returns; refused ones stay
// listed; cancelled ones and those of a person who signed out are never
// sent; paying is never kept.
import type { BrowserContext, Page } from "@playwright/test";
import {
  apiPost,
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
  uniqueUsername,
  untilHydrated,
  type Person,
} from "./fixtures";

const SAVED = "Saved on this phone — it will be sent when you're back online.";
const NOT_SENT = "Not sent — check your connection and try again.";

// eslint-disable-next-line no-empty-pattern -- Playwright needs the pattern
test.beforeEach(({}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "without JavaScript nothing is kept");
});

function betBody(amount = 15) {
  return {
    title: `Offline ${uniqueUsername("b")}`,
    description: "The train is late again.",
    amount,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
  };
}

async function openBet(baseURL: string) {
  const creator = await createPerson("oc");
  const bet = (await apiPost(baseURL, creator, "/api/bets", betBody())) as {
    id: number;
    title: string;
  };
  return { creator, bet };
}

async function participants(page: Page, betId: number) {
  const res = await page.request.get(`/api/bets/${betId}`);
  const bet = (await res.json()) as { participantIds: number[] };
  return [...bet.participantIds].sort((a, b) => a - b);
}

/**
 * The form POSTs that reach the bet's page from any tab of this context, by
 * the key each carries. The context's route sees every tab's requests (the
 * service worker is blocked in these journeys); while the line is down
 * (`line.up` false, set with the context offline) they fail as offline and
 * are not counted.
 */
async function watchJoinSends(context: BrowserContext, betId: number) {
  const line = { up: true };
  const keys: string[] = [];
  await context.route(`**/bet/${betId}.data*`, (route) => {
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

type Line = { up: boolean };

/** Both what the browser says and what the watch lets through. */
async function setLine(context: BrowserContext, line: Line, up: boolean) {
  // Up before the browser hears `online`: nothing sends while it is offline.
  if (up) line.up = true;
  await context.setOffline(!up);
  if (!up) line.up = false;
}

async function joinOffline(
  page: Page,
  context: BrowserContext,
  betId: number,
  line: Line,
) {
  await page.goto(`/bet/${betId}`);
  const join = page.getByRole("button", { name: /^Join Bet for/ });
  await untilHydrated(join);
  await setLine(context, line, false);
  await join.click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(
    page.getByRole("button", { name: "1 waiting to send" }),
  ).toBeVisible();
}

async function signedIn(
  context: BrowserContext,
  baseURL: string,
  who: Person & { cookie: string },
) {
  await context.clearCookies();
  await signIn(context, baseURL, who.cookie);
}

test("a join taken offline is saved, counted in the header, and sent by itself once back online", async ({
  page,
  context,
  baseURL,
}) => {
  const { creator, bet } = await openBet(baseURL!);
  const me = await createPerson("oj");
  await signedIn(context, baseURL!, me);
  const sends = await watchJoinSends(context, bet.id);
  await joinOffline(page, context, bet.id, sends.line);
  const key = await page
    .locator("form", {
      has: page.getByRole("button", { name: /^Join Bet for/ }),
    })
    .locator('input[name="idempotencyKey"]')
    .inputValue();
  expect(await participants(page, bet.id)).toEqual([creator.id]);
  expect(sends.keys, "nothing reached the server offline").toEqual([]);

  await setLine(context, sends.line, true); // no tap
  await expect(page.getByText("You joined the bet!").first()).toBeVisible();
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);
  // The server's side: the join was made, once.
  expect(await participants(page, bet.id)).toEqual(
    [creator.id, me.id].sort((a, b) => a - b),
  );
  await page.reload();
  await expect(page.getByRole("button", { name: /^Join Bet for/ })).toHaveCount(
    0,
  );
  expect(sends.keys, "sent once, under the key it was taken with").toEqual([
    key,
  ]);
});

test("a bet created offline survives closing the tab and is sent by the next page load", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await createPerson("ob");
  await signedIn(context, baseURL!, me);
  const title = `Tunnel ${uniqueUsername("t")}`;
  await page.goto("/create-bet");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Sent from the tunnel.");
  await page
    .getByLabel("Deadline date")
    .fill(new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10));
  await page.getByLabel("Wager amount ($)").fill("25");
  await untilHydrated(page.getByRole("button", { name: "Create Bet" }));
  await context.setOffline(true);
  await page.getByRole("button", { name: "Create Bet" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await page.close();

  await context.setOffline(false);
  const next = await context.newPage();
  await next.goto("/my-bets");
  // The answer the person would have seen: the new bet, with its toast.
  await expect(next).toHaveURL(/\/bet\/\d+$/);
  await expect(next.getByRole("heading", { name: title })).toBeVisible();
  const mine = (await (
    await next.request.get("/api/user/bets/created")
  ).json()) as { title: string }[];
  expect(mine.filter((b) => b.title === title)).toHaveLength(1);
});

test("a queued join that someone else beat is listed as Not sent with the server's reason, until dismissed", async ({
  page,
  context,
  baseURL,
}) => {
  const { bet } = await openBet(baseURL!);
  const me = await createPerson("ol");
  await signedIn(context, baseURL!, me);
  const sends = await watchJoinSends(context, bet.id);
  await joinOffline(page, context, bet.id, sends.line);
  const quicker = await createPerson("oq");
  await apiPost(baseURL!, quicker, `/api/bets/${bet.id}/join`);

  await setLine(context, sends.line, true);
  const refused = page.getByRole("button", { name: "1 not sent" });
  await expect(refused).toBeVisible();
  await refused.click();
  const list = page.getByRole("region", { name: "Actions kept on this phone" });
  await expect(list.getByText("Join a bet")).toBeVisible();
  await expect(list.getByText(bet.title)).toBeVisible();
  await expect(list.getByText(/^Not sent: .+/)).toBeVisible();
  await expect(list.getByText("Not sent: older than 7 days")).toHaveCount(0);
  expect(await participants(page, bet.id)).not.toContain(me.id);
  await list.getByRole("button", { name: "Dismiss" }).click();
  await expect(refused).toHaveCount(0);
});

test("a cancelled action is never sent", async ({ page, context, baseURL }) => {
  const { bet } = await openBet(baseURL!);
  const me = await createPerson("ox");
  await signedIn(context, baseURL!, me);
  const sends = await watchJoinSends(context, bet.id);
  await joinOffline(page, context, bet.id, sends.line);
  await page.getByRole("button", { name: "1 waiting to send" }).click();
  const list = page.getByRole("region", { name: "Actions kept on this phone" });
  await expect(list.getByText("Waiting to send")).toBeVisible();
  await list.getByRole("button", { name: "Cancel" }).click();
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);

  await setLine(context, sends.line, true);
  await page.goto("/");
  await page.goto(`/bet/${bet.id}`);
  await expect(
    page.getByRole("button", { name: /^Join Bet for/ }),
  ).toBeVisible();
  expect(await participants(page, bet.id)).not.toContain(me.id);
  expect(sends.keys).toEqual([]);
});

// docs/product-rules.md#languages: the list names a kept action in the
// reader's language (its route names it by a message key).
test("a German reader's list names the kept action in German", async ({
  page,
  context,
  baseURL,
}) => {
  const { bet } = await openBet(baseURL!);
  const me = await createPerson("og");
  await signedIn(context, baseURL!, me);
  await context.addCookies([{ name: "lang", value: "de", url: baseURL! }]);
  const sends = await watchJoinSends(context, bet.id);
  await page.goto(`/bet/${bet.id}`);
  const join = page.getByRole("button", { name: /^Für .+ beitreten$/ });
  await untilHydrated(join);
  await setLine(context, sends.line, false);
  await join.click();
  await page.getByRole("button", { name: "1 warten aufs Senden" }).click();
  const list = page.getByRole("region", {
    name: "Auf diesem Handy gespeicherte Aktionen",
  });
  await expect(list.getByText("Einer Wette beitreten")).toBeVisible();
  await expect(list.getByText(bet.title)).toBeVisible();
  await expect(list.getByText("Join a bet")).toHaveCount(0);
  await expect(list.getByText("kept.joinBet")).toHaveCount(0);
  await list.getByRole("button", { name: "Abbrechen" }).click();
  await expect(
    page.getByRole("button", { name: /warten aufs Senden/ }),
  ).toHaveCount(0);
});

test("signing out with actions waiting asks first, then nothing of theirs is sent", async ({
  page,
  context,
  baseURL,
}) => {
  const { bet } = await openBet(baseURL!);
  const me = await createPerson("oo");
  await signedIn(context, baseURL!, me);
  // The network fails for this bet's page only, so signing out can reach the server.
  await page.route(`**/bet/${bet.id}.data*`, (route) =>
    route.request().method() === "POST"
      ? route.abort("internetdisconnected")
      : route.continue(),
  );
  await page.goto(`/bet/${bet.id}`);
  const join = page.getByRole("button", { name: /^Join Bet for/ });
  await untilHydrated(join);
  await join.click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(
    page.getByRole("button", { name: "1 waiting to send" }),
  ).toBeVisible();

  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole("button", { name: "Logout" }).click();
  await expect
    .poll(() => asked)
    .toEqual(["1 action hasn't been sent. Sign out and discard it?"]);
  await expect(page).toHaveURL(new RegExp(`/bet/${bet.id}$`));
  await expect(
    page.getByRole("button", { name: "1 waiting to send" }),
  ).toBeVisible();

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth/);
  await page.unroute(`**/bet/${bet.id}.data*`);

  // The same person back: nothing of theirs waits or is sent.
  const sends = await watchJoinSends(context, bet.id);
  const again = await page.request.post("/api/login", {
    data: { username: me.username, password: me.password },
  });
  expect(again.status()).toBe(200);
  await page.goto(`/bet/${bet.id}`);
  await expect(
    page.getByRole("button", { name: /^Join Bet for/ }),
  ).toBeVisible();
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);
  expect(await participants(page, bet.id)).not.toContain(me.id);
  expect(sends.keys).toEqual([]);
});

test("another person signing in on the phone never sees, sends or keeps the first one's actions", async ({
  page,
  context,
  baseURL,
}) => {
  const { bet } = await openBet(baseURL!);
  const first = await createPerson("o1");
  await signedIn(context, baseURL!, first);
  const sends = await watchJoinSends(context, bet.id);
  await joinOffline(page, context, bet.id, sends.line);
  const second = await createPerson("o2");
  await signedIn(context, baseURL!, second);
  await setLine(context, sends.line, true);
  await page.goto(`/bet/${bet.id}`);
  // The second person's page running (before that, no script of the app runs).
  await untilHydrated(page.getByRole("button", { name: /^Join Bet for/ }));
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);
  // Kept no longer: the first person back finds nothing to send.
  await signedIn(context, baseURL!, first);
  await page.goto(`/bet/${bet.id}`);
  await expect(
    page.getByRole("button", { name: /^Join Bet for/ }),
  ).toBeVisible();
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);
  expect(await participants(page, bet.id)).toHaveLength(1);
  expect(sends.keys).toEqual([]);
});

test("two tabs open do not send one action twice", async ({
  page,
  context,
  baseURL,
}) => {
  const { creator, bet } = await openBet(baseURL!);
  const me = await createPerson("ot");
  await signedIn(context, baseURL!, me);
  const other = await context.newPage();
  await other.goto("/my-bets");
  await untilHydrated(other.getByRole("link", { name: "Fairshake home" }));
  const sends = await watchJoinSends(context, bet.id);
  await joinOffline(page, context, bet.id, sends.line);
  await expect(
    other.getByRole("button", { name: "1 waiting to send" }),
  ).toBeVisible();

  await setLine(context, sends.line, true); // both tabs hear `online`
  await expect
    .poll(() => participants(page, bet.id))
    .toEqual([creator.id, me.id].sort((a, b) => a - b));
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);
  await expect(
    other.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);
  // Each tab loads again (a reason to send, were anything still kept).
  await other.reload();
  await page.reload();
  await untilHydrated(other.getByRole("link", { name: "Fairshake home" }));
  await untilHydrated(page.getByRole("link", { name: "Fairshake home" }));
  expect(await participants(page, bet.id)).toEqual(
    [creator.id, me.id].sort((a, b) => a - b),
  );
  expect(sends.keys, "one send from the two tabs").toHaveLength(1);
});

test("paying offline is never kept: Not sent, and nothing is charged later", async ({
  page,
  context,
  baseURL,
}) => {
  const a = await createPerson("pa");
  const b = await createPerson("pb");
  const bet = (await apiPost(baseURL!, a, "/api/bets", betBody(20))) as {
    id: number;
  };
  await apiPost(baseURL!, b, `/api/bets/${bet.id}/join`);
  await apiPost(baseURL!, b, `/api/bets/${bet.id}/propose-settlement`, {
    winnerId: b.id,
  });
  await apiPost(baseURL!, a, `/api/settlements/${bet.id}/approve`);
  await signedIn(context, baseURL!, a);
  await page.goto(`/checkout/${bet.id}`);
  const pay = page.getByRole("button", { name: "Pay $20.00" });
  await untilHydrated(pay);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry").fill("12/40");
  await page.getByLabel("CVC").fill("123");
  await context.setOffline(true);
  await pay.click();
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  await expect(page.getByText(SAVED)).toHaveCount(0);
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);

  await context.setOffline(false);
  await page.goto("/my-bets");
  await page.goto(`/checkout/${bet.id}`);
  await expect(page.getByRole("button", { name: "Pay $20.00" })).toBeVisible();
});
