// A currency per bet and amounts typed the local way (docs/product-rules.md#currencies,
// #amounts-typed-the-local-way), with JavaScript and without: a JPY bet of
// 1,001 typed on an English page has a fee of ¥25 and pays out ¥976.
import { expect, jsEnabled, test, untilHydrated } from "./fixtures";

const inDays = (n: number) =>
  new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

test.describe("currencies", () => {
  test("a ¥1,001 bet on an English page: fee ¥25, payout ¥976; an ambiguous amount is refused and kept as typed", async ({
    signedInPage: page,
  }) => {
    await page.goto("/create-bet");
    await expect(page.getByLabel("Currency")).toHaveValue("USD");
    const amount = page.getByLabel(/Wager amount/);
    await expect(amount).toHaveAttribute("inputmode", "numeric");

    await page.getByLabel("Title").fill("Sumo final");
    await page.getByLabel("Description").fill("Who takes the basho.");
    await page.getByLabel("Deadline date").fill(inDays(3));
    await page.getByLabel("Currency").selectOption("JPY");
    // One thousand the German way, on an English page: refused, never ¥1.
    await amount.fill("1.000");
    await page.getByRole("button", { name: "Create Bet" }).click();
    await expect(
      page.getByText("Write one thousand as 1,000 or 1000."),
    ).toBeVisible();
    await expect(page.getByLabel(/Wager amount/)).toHaveValue("1.000");
    await expect(page.getByLabel("Currency")).toHaveValue("JPY");

    await page.getByLabel(/Wager amount/).fill("1,001");
    await page.getByRole("button", { name: "Create Bet" }).click();
    await expect(page).toHaveURL(/\/bet\/\d+$/);
    await expect(page.getByText("¥1,001").first()).toBeVisible();
    await expect(page.getByTestId("bet-fee")).toHaveText("¥25");
    await expect(page.getByTestId("bet-payout")).toHaveText("¥976");
  });

  test("the create form's fee preview follows the currency (JavaScript)", async ({
    signedInPage: page,
  }, testInfo) => {
    test.skip(
      !jsEnabled(testInfo),
      "The live preview needs JavaScript; without it the bet page shows the fee.",
    );
    await page.goto("/create-bet");
    await untilHydrated(page.getByLabel("Include specific time"));
    await page.getByLabel("Currency").selectOption("JPY");
    await expect(page.getByLabel("Wager amount (¥)")).toBeVisible();
    await page.getByLabel("Wager amount (¥)").fill("1,001");
    const preview = page.getByTestId("fee-preview");
    await expect(preview).toContainText("-¥25");
    await expect(preview).toContainText("¥976");
  });
});
