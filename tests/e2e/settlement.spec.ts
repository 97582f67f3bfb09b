// Settling and paying, once with JavaScript and once without: propose,
// approve, pay by card, see the money in both people's financial history;
// a declined card; a rejection followed by a new proposal; a concession.
import { type BrowserContext, type Page } from "@playwright/test";
import {
  apiPost,
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
  untilHydrated,
} from "./fixtures";

type Person = Awaited<ReturnType<typeof createPerson>>;

const call = apiPost;

/** Two people and an active bet between them (creator a, joiner b). */
async function activeBet(baseURL: string, amount = 100) {
  const a = await createPerson("sa");
  const b = await createPerson("sb");
  const bet = await call(baseURL, a, "/api/bets", {
    title: "Rain on Saturday",
    description: "It rains in the city on Saturday.",
    amount,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
  });
  await call(baseURL, b, `/api/bets/${bet.id}/join`);
  return { a, b, betId: bet.id as number };
}

async function as(
  context: BrowserContext,
  baseURL: string | undefined,
  who: Person,
) {
  await context.clearCookies();
  await signIn(context, baseURL!, who.cookie);
}

async function payWith(page: Page, card: string) {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry").fill("12/40");
  await page.getByLabel("CVC").fill("123");
}

const toast = (page: Page, text: string) =>
  expect(page.getByText(text, { exact: true }).first()).toBeVisible();

test("propose, approve, pay with 4242, see the money on both sides", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const { a, b, betId } = await activeBet(baseURL!, 100);

  // b proposes themself as the winner.
  await as(context, baseURL, b);
  await page.goto(`/propose-settlement/${betId}`);
  await page.getByLabel(`${b.username} (you)`).check();
  await page.getByLabel("Notes (optional)").fill("  It poured all day  ");
  await page.getByRole("button", { name: "Propose Settlement" }).click();
  await expect(page).toHaveURL(new RegExp(`/settlements/${betId}/approve$`));
  await toast(page, "Settlement proposed");
  await expect(page.getByText("It poured all day")).toBeVisible();
  await expect(
    page.getByText("Approved, waiting for the other side"),
  ).toBeVisible();
  // The proposer cannot approve their own proposal.
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);

  // a (the creator, losing) reviews and approves.
  await as(context, baseURL, a);
  await page.goto(`/settlements/${betId}/approve`);
  await expect(page.getByText("Waiting for approval")).toBeVisible();
  const money = page.getByRole("region", { name: "Money" });
  await expect(money.getByText("$2.50")).toBeVisible();
  await expect(money.getByText("$97.50")).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();

  // The loser goes to the payment summary (docs/product-rules.md#paying: you pay the bet amount).
  await expect(page).toHaveURL(new RegExp(`/payment/${betId}$`));
  await toast(page, "Settlement approved");
  const summary = page.getByRole("region", { name: "Payment summary" });
  await expect(summary.getByText("You pay", { exact: true })).toBeVisible();
  await expect(summary.getByText("$100.00").first()).toBeVisible();
  await expect(summary.getByText("$97.50")).toBeVisible();
  await expect(page.getByLabel("Apple Pay")).toBeDisabled();
  await expect(page.getByText("Coming soon")).toHaveCount(5);
  await page.getByRole("button", { name: "Continue to card payment" }).click();

  await expect(page).toHaveURL(new RegExp(`/checkout/${betId}$`));
  await expect(page.getByText(/Demo — no real charges/)).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveAttribute(
    "autocomplete",
    "off",
  );
  if (jsEnabled(testInfo))
    await untilHydrated(page.getByRole("button", { name: "Pay $100.00" }));
  await payWith(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $100.00" }).click();
  if (jsEnabled(testInfo)) {
    await expect(
      page.getByRole("heading", { name: "Payment successful" }),
    ).toBeVisible();
  }
  await expect(page).toHaveURL(/\/my-bets$/);
  await toast(page, "Payment successful");

  // The loser's history shows the payment; the winner's the payout and fee.
  await page.goto("/financial-history");
  const table = page.getByRole("table");
  await expect(table.getByText("-100.00")).toBeVisible();
  await expect(table.getByText("completed")).toBeVisible();

  await as(context, baseURL, b);
  await page.goto("/financial-history?preset=all");
  await expect(
    page.getByRole("table").getByText("100.00", { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole("table").getByText("-2.50")).toBeVisible();
  const net = page.getByRole("region", { name: "Summary" });
  await expect(net.getByText("$97.50")).toBeVisible();
  await expect(net.getByText("Win rate 100%")).toBeVisible();
  await page.getByRole("link", { name: "Refresh Data" }).click();
  await expect(page.getByRole("status").getByText("Refreshed")).toBeVisible();

  // Paying twice is refused.
  await as(context, baseURL, a);
  await page.goto(`/payment/${betId}`);
  await expect(page.getByText("This bet has already been paid.")).toBeVisible();
});

test("a declined card records nothing", async ({ page, context, baseURL }) => {
  const { a, b, betId } = await activeBet(baseURL!, 20);
  await call(baseURL!, b, `/api/bets/${betId}/propose-settlement`, {
    winnerId: b.id,
  });
  await call(baseURL!, a, `/api/settlements/${betId}/approve`);
  await as(context, baseURL, a);
  await page.goto(`/checkout/${betId}`);
  await payWith(page, "4000 0000 0000 0002");
  await page.getByRole("button", { name: "Pay $20.00" }).click();
  await expect(page.getByRole("alert")).toContainText("Payment failed");
  await expect(page.getByRole("alert")).toContainText(
    "Your card was declined.",
  );
  await payWith(page, "5555 5555 5555 4444");
  await page.getByRole("button", { name: "Pay $20.00" }).click();
  await expect(
    page
      .getByText("Demo mode accepts test cards only: use 4242 4242 4242 4242.")
      .first(),
  ).toBeVisible();
  await page.goto(`/payment/${betId}`);
  await expect(
    page.getByRole("button", { name: "Continue to card payment" }),
  ).toBeVisible();
  // A method that is only 'Coming soon', forced past the disabled radio.
  const forged = await page.request.post(`/payment/${betId}`, {
    form: { method: "paypal" },
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain(
    "Only card payments are supported in the demo...",
  );
});

test("a rejection, then a new proposal", async ({ page, context, baseURL }) => {
  const { a, b, betId } = await activeBet(baseURL!, 30);
  await call(baseURL!, b, `/api/bets/${betId}/propose-settlement`, {
    winnerId: b.id,
  });
  await as(context, baseURL, a);
  await page.goto(`/settlements/${betId}/approve`);
  await page.getByRole("link", { name: "Reject" }).click();
  await expect(page).toHaveURL(new RegExp(`/settlements/${betId}/reject$`));
  await expect(page.getByRole("link", { name: "Cancel" })).toHaveAttribute(
    "href",
    `/settlements/${betId}/approve`,
  );
  await page.getByLabel("Reason (optional)").fill("It stayed dry");
  await page.getByRole("button", { name: "Reject Settlement" }).click();
  await expect(page).toHaveURL(new RegExp(`/bet/${betId}$`));
  await toast(page, "Settlement rejected");

  await page.goto(`/propose-settlement/${betId}`);
  const form = page.getByRole("form", { name: "Propose settlement" });
  await form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
  await page.getByRole("button", { name: "Propose Settlement" }).click();
  await expect(
    page.getByText("Please select a winner to settle the bet.").first(),
  ).toBeVisible();
  await expect(page.getByText("No winner selected")).toBeVisible();
  await page.getByLabel(`${a.username} (you)`).check();
  await page.getByRole("button", { name: "Propose Settlement" }).click();
  await expect(page).toHaveURL(new RegExp(`/settlements/${betId}/approve$`));
  await expect(page.getByText(`proposed ${a.username}`).first()).toBeVisible();
});

test("direct settle by concession goes to payment; others are refused", async ({
  page,
  context,
  baseURL,
}) => {
  const { a, b, betId } = await activeBet(baseURL!, 40);
  await as(context, baseURL, b);
  await page.goto(`/settle-bet/${betId}`);
  await expect(
    page.getByText("Only the bet creator can settle this bet"),
  ).toBeVisible();

  await as(context, baseURL, a);
  await page.goto(`/settle-bet/${betId}`);
  await page.getByLabel(new RegExp(`^${b.username}`)).check();
  await page.getByRole("button", { name: "Settle Bet" }).click();
  await expect(page).toHaveURL(new RegExp(`/payment/${betId}$`));
  await toast(page, "Bet settled");
  await expect(
    page.getByRole("region", { name: "Payment summary" }).getByText("$39.00"),
  ).toBeVisible();
});
