// Fair to the end (docs/product-rules.md#answer-windows, #void, #referee, #getting-paid), each journey with JavaScript
// and without: a proposal nobody answers is approved when its window ends
// (on the second server, whose windows last seconds), calling a bet off,
// the referee from the create form to the ruling, and the winner's nudge.
import { type BrowserContext, type Page } from "@playwright/test";
import {
  apiPost,
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
} from "./fixtures";

type Person = Awaited<ReturnType<typeof createPerson>>;

const FAIR_URL = `http://localhost:${process.env.E2E_FAIR_PORT ?? Number(process.env.E2E_PORT ?? 3210) + 1}`;

const call = apiPost;

const betBody = (extra: Record<string, unknown> = {}) => ({
  title: "Snow before December",
  description: "It snows in the city before December.",
  amount: 30,
  deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  visibility: "public",
  ...extra,
});

async function activeBet(baseURL: string) {
  const a = await createPerson("fa", baseURL);
  const b = await createPerson("fb", baseURL);
  const bet = await call(baseURL, a, "/api/bets", betBody());
  await call(baseURL, b, `/api/bets/${bet.id}/join`);
  return { a, b, betId: bet.id as number };
}

async function as(context: BrowserContext, baseURL: string, who: Person) {
  await context.clearCookies();
  await signIn(context, baseURL, who.cookie);
}

/**
 * The Activity tab. With JavaScript it marks everything read by a POST as
 * it opens; wait for that to finish, so following a link is not raced by it.
 */
async function openActivity(page: Page, js: boolean) {
  await page.goto("/notifications");
  if (js) await expect(page.getByText("New", { exact: true })).toHaveCount(0);
}

const toast = (page: Page, text: string) =>
  expect(page.getByText(text, { exact: true }).first()).toBeVisible();

test.describe("the answer window (short windows)", () => {
  test.use({ baseURL: FAIR_URL });

  test("the deadline is shown, and silence approves the proposal", async ({
    page,
    context,
  }) => {
    const { a, b, betId } = await activeBet(FAIR_URL);
    await call(FAIR_URL, b, `/api/bets/${betId}/propose-settlement`, {
      winnerId: b.id,
    });
    await as(context, FAIR_URL, a);
    await page.goto(`/settlements/${betId}/approve`);
    await expect(
      page.getByText(/Approved automatically on .+ unless you reject it\./),
    ).toBeVisible();
    await page.goto(`/settlements/${betId}/reject`);
    await expect(
      page.getByText(/Approved automatically on .+ unless you reject it\./),
    ).toBeVisible();
    await page.goto(`/bet/${betId}`);
    await expect(
      page.getByText(/Approved automatically on .+ unless you reject it\./),
    ).toBeVisible();
    // Nobody answers: the sweep approves for a when the window ends.
    await expect(async () => {
      await page.goto(`/bet/${betId}`);
      await expect(page.getByText(`${b.username} won`)).toBeVisible({
        timeout: 1000,
      });
    }).toPass({ timeout: 40_000 });
    await expect(page.getByText(/Payment (due by|overdue)/)).toBeVisible();
    await page.goto("/notifications");
    const settled = page.getByRole("link", {
      name: /won "Snow before December" \(no answer in time\)/,
    });
    await expect(settled).toBeVisible();
  });
});

test("call it off: the third choice, approved by the other side", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const { a, b, betId } = await activeBet(baseURL!);
  await as(context, baseURL!, b);
  await page.goto(`/propose-settlement/${betId}`);
  await page.getByLabel(/Call it off/).check();
  await page.getByRole("button", { name: "Propose Settlement" }).click();
  await expect(page).toHaveURL(new RegExp(`/settlements/${betId}/approve$`));
  await toast(page, "Settlement proposed");
  await expect(
    page.getByText("calling it off (no winner, no payment)"),
  ).toBeVisible();

  await as(context, baseURL!, a);
  await openActivity(page, jsEnabled(testInfo));
  await page.getByRole("link", { name: /proposed calling it off/ }).click();
  await expect(page).toHaveURL(new RegExp(`/settlements/${betId}/approve$`));
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(new RegExp(`/settlements/${betId}/approve$`));
  await expect(
    page.getByText(/Called off \(both sides agreed\)/),
  ).toBeVisible();
  await page.goto(`/bet/${betId}`);
  await expect(page.getByRole("heading", { name: "Called off" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Pay Winnings" })).toHaveCount(0);
});

test("a referee from the create form rules a dispute", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const a = await createPerson("ra");
  const b = await createPerson("rb");
  const ref = await createPerson("rr");
  await call(baseURL!, a, "/api/friends", { friendId: ref.id });
  await call(baseURL!, ref, "/api/friends/accept", { friendId: a.id });

  // a creates the bet, choosing the referee from a select of friends.
  await as(context, baseURL!, a);
  await page.goto("/create-bet");
  await page.getByLabel("Title").fill("Who finishes the marathon first");
  await page.getByLabel("Description").fill("The first across the line wins.");
  await page
    .getByLabel("Referee (optional)")
    .selectOption({ label: ref.username });
  await page.getByRole("button", { name: "Create Bet" }).click();
  await expect(page).toHaveURL(/\/bet\/\d+$/);
  const betId = Number(page.url().split("/").pop());
  await expect(
    page.getByText(`${ref.username}`, { exact: true }),
  ).toBeVisible();

  // b sees the referee before joining.
  const bet = await (await page.request.get(`/api/bets/${betId}`)).json();
  await as(context, baseURL!, b);
  await page.goto(`/join/${bet.code}`);
  await expect(page.getByText(/Referee:/)).toContainText(ref.username);
  // …and how the creator pays their lost bets (docs/product-rules.md#getting-paid).
  await expect(page.getByText(/No lost bets to pay yet/)).toBeVisible();
  await page.getByRole("button", { name: "Join This Bet" }).click();
  await expect(page).toHaveURL(new RegExp(`/bet/${betId}$`));

  // A proposal is rejected; b asks the referee.
  await call(baseURL!, a, `/api/bets/${betId}/propose-settlement`, {
    winnerId: a.id,
  });
  await call(baseURL!, b, `/api/settlements/${betId}/reject`, {});
  await page.goto(`/bet/${betId}`);
  await page.getByRole("button", { name: "Ask the referee" }).click();
  await toast(page, "Sent to the referee");
  await expect(page.getByText(/With the referee/)).toBeVisible();

  // The referee follows the activity link to the ruling screen.
  await as(context, baseURL!, ref);
  await openActivity(page, jsEnabled(testInfo));
  await page.getByRole("link", { name: /asked you to referee/ }).click();
  await expect(page).toHaveURL(new RegExp(`/bet/${betId}/rule$`));
  await page.getByLabel(new RegExp(`^${b.username}`)).check();
  await page.getByRole("button", { name: "Record Ruling" }).click();
  await expect(page).toHaveURL(new RegExp(`/bet/${betId}$`));
  await toast(page, "Ruling recorded");
  await expect(page.getByText(`${b.username} won`)).toBeVisible();
});

test("the winner nudges the loser, who lands on the payment screen", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const { a, b, betId } = await activeBet(baseURL!);
  // a concedes: b won, a owes.
  await call(baseURL!, a, `/api/bets/${betId}/settle`, { winnerId: b.id });
  await as(context, baseURL!, b);
  await page.goto(`/bet/${betId}`);
  await expect(page.getByText(/Payment due by/)).toBeVisible();
  await page.getByRole("button", { name: "Nudge to pay" }).click();
  await toast(page, "Nudge sent");
  await expect(
    page.getByText("You can nudge again in 24 hours."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Nudge to pay" })).toHaveCount(
    0,
  );

  await as(context, baseURL!, a);
  await openActivity(page, jsEnabled(testInfo));
  await page.getByRole("link", { name: /nudged you/ }).click();
  await expect(page).toHaveURL(new RegExp(`/payment/${betId}$`));
  // The payment record shows where people decide to bet with a.
  await page.goto("/profile");
  await expect(
    page.getByText(/Payment record: Paid 0 of 1 lost bet/),
  ).toBeVisible();
});
