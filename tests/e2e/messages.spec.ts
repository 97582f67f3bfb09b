// Messages on a bet (docs/product-rules.md#messages), at 390 px, with
// JavaScript and without: one side writes on the bet page, the other sees
// it appear by itself (JavaScript) or on reload (without); the author
// deletes it within the window; a message written offline is sent when the
// connection returns.
import type { Browser, TestInfo } from "@playwright/test";
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

/** A private bet of Alice's, waiting for someone to join: she may talk on it. */
async function alicesBet(baseURL: string) {
  const alice = await createPerson("ma");
  const bet = (await apiPost(baseURL, alice, "/api/bets", {
    title: `Talk ${uniqueUsername("t")}`,
    description: "Whoever is late buys the coffee.",
    amount: 10,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "private",
  })) as { id: number };
  return { alice, bet };
}

/** A second phone, the same project's settings, for the other side. */
async function otherPhone(browser: Browser, testInfo: TestInfo) {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled: jsEnabled(testInfo),
    serviceWorkers: "block",
  });
}

test("one side writes, the other sees it (live with JavaScript, on reload without); the author deletes it", async ({
  page,
  context,
  baseURL,
  browser,
}, testInfo) => {
  const js = jsEnabled(testInfo);
  const alice = await createPerson("ma");
  const bob = await createPerson("mb");
  const bet = (await apiPost(baseURL!, alice, "/api/bets", {
    title: `Talk ${uniqueUsername("t")}`,
    description: "Whoever is late buys the coffee.",
    amount: 10,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
  })) as { id: number };
  await apiPost(baseURL!, bob, `/api/bets/${bet.id}/join`);

  await signIn(context, baseURL!, alice.cookie);
  const bobContext = await otherPhone(browser, testInfo);
  await signIn(bobContext, baseURL!, bob.cookie);
  const bobPage = await bobContext.newPage();
  try {
    await bobPage.goto(`/bet/${bet.id}`);
    const bobMessages = bobPage.getByRole("list", { name: "Messages" });
    await expect(bobPage.getByText("No messages yet.")).toBeVisible();

    await page.goto(`/bet/${bet.id}`);
    const send = page.getByRole("button", { name: "Send message" });
    if (js) await untilHydrated(send);
    const box = page.getByLabel("Write a message");
    await box.fill("I saw the train leave at 8:02.");
    await send.click();
    const mine = page.getByRole("list", { name: "Messages" });
    await expect(
      mine.getByText("I saw the train leave at 8:02."),
    ).toBeVisible();
    await expect(mine.getByText(`${alice.username} (you)`)).toBeVisible();
    if (js) {
      // Sent without a reload: the box is empty again.
      await expect(box).toHaveValue("");
    }

    if (!js) await bobPage.reload();
    await expect(
      bobMessages.getByText("I saw the train leave at 8:02."),
    ).toBeVisible();
    await expect(bobMessages.getByText(alice.username)).toBeVisible();
    // The other side cannot delete it.
    await expect(
      bobPage.getByRole("button", { name: "Delete message" }),
    ).toHaveCount(0);

    // Bob answers; Alice sees it (by itself with JavaScript).
    const bobSend = bobPage.getByRole("button", { name: "Send message" });
    if (js) await untilHydrated(bobSend);
    await bobPage.getByLabel("Write a message").fill("It left at 8:05.");
    await bobSend.click();
    if (!js) await page.reload();
    await expect(mine.getByText("It left at 8:05.")).toBeVisible();

    // Alice deletes her own within the window.
    const del = page.getByRole("button", { name: "Delete message" });
    await expect(del).toHaveCount(1);
    if (js) await untilHydrated(del);
    await del.click();
    await expect(mine.getByText("Message deleted")).toBeVisible();
    await expect(mine.getByText("I saw the train leave at 8:02.")).toHaveCount(
      0,
    );
    if (!js) await bobPage.reload();
    await expect(bobMessages.getByText("Message deleted")).toBeVisible();
  } finally {
    await bobContext.close();
  }
});

test("a refused message says why and keeps what was typed", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const { alice, bet } = await alicesBet(baseURL!);
  await signIn(context, baseURL!, alice.cookie);
  await page.goto(`/bet/${bet.id}`);
  const send = page.getByRole("button", { name: "Send message" });
  if (jsEnabled(testInfo)) await untilHydrated(send);
  // Only spaces: the browser's `required` lets it through, the server refuses it.
  await page.getByLabel("Write a message").fill("   ");
  await send.click();
  await expect(page.getByText("Write a message first.")).toBeVisible();
  await expect(page.getByText("No messages yet.")).toBeVisible();
  await expect(page.getByLabel("Write a message")).toHaveValue("   ");
});

test("a message written offline is kept and sent by itself when back online", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "without JavaScript nothing is kept");
  const { alice, bet } = await alicesBet(baseURL!);
  await signIn(context, baseURL!, alice.cookie);
  await page.goto(`/bet/${bet.id}`);
  const send = page.getByRole("button", { name: "Send message" });
  await untilHydrated(send);
  await context.setOffline(true);
  await page.getByLabel("Write a message").fill("Sent from the tunnel.");
  await send.click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(
    page.getByRole("button", { name: "1 waiting to send" }),
  ).toBeVisible();

  await context.setOffline(false);
  const list = page.getByRole("list", { name: "Messages" });
  await expect(list.getByText("Sent from the tunnel.")).toBeVisible();
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);
  const res = await page.request.get(`/api/bets/${bet.id}/messages`);
  const messages = (await res.json()) as { body: string }[];
  expect(messages.map((m) => m.body)).toEqual(["Sent from the tunnel."]);
});

test("the approve and reject screens and the referee's page show what was said above the buttons", async ({
  page,
  context,
  baseURL,
}) => {
  const a = await createPerson("ra");
  const b = await createPerson("rb");
  const ref = await createPerson("rr");
  await apiPost(baseURL!, a, "/api/friends", { friendId: ref.id });
  await apiPost(baseURL!, ref, "/api/friends/accept", { friendId: a.id });
  const bet = (await apiPost(baseURL!, a, "/api/bets", {
    title: `Marathon ${uniqueUsername("t")}`,
    description: "The first across the line wins.",
    amount: 10,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
    refereeId: ref.id,
  })) as { id: number };
  await apiPost(baseURL!, b, `/api/bets/${bet.id}/join`);
  await apiPost(baseURL!, a, `/api/bets/${bet.id}/messages`, {
    body: "I crossed first, photo finish.",
  });
  await apiPost(baseURL!, b, `/api/bets/${bet.id}/messages`, {
    body: "No, my chip time is earlier.",
  });
  await apiPost(baseURL!, a, `/api/bets/${bet.id}/propose-settlement`, {
    winnerId: a.id,
  });

  const said = async (button: string) => {
    const list = page.getByRole("list", { name: "Messages" });
    await expect(
      list.getByText("I crossed first, photo finish."),
    ).toBeVisible();
    await expect(list.getByText("No, my chip time is earlier.")).toBeVisible();
    // Above the buttons.
    const listBox = (await list.boundingBox())!;
    const buttonBox = (await page
      .getByRole("button", { name: button })
      .boundingBox())!;
    expect(listBox.y).toBeLessThan(buttonBox.y);
  };

  await signIn(context, baseURL!, b.cookie);
  await page.goto(`/settlements/${bet.id}/approve`);
  await said("Approve");
  await page.goto(`/settlements/${bet.id}/reject`);
  await said("Reject Settlement");
  await apiPost(baseURL!, b, `/api/settlements/${bet.id}/reject`, {});
  await apiPost(baseURL!, b, `/api/bets/${bet.id}/refer`);

  await context.clearCookies();
  await signIn(context, baseURL!, ref.cookie);
  await page.goto(`/bet/${bet.id}/rule`);
  await said("Record Ruling");
});
