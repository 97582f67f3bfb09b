// The profile's currency for new bets (docs/product-rules.md#currencies),
// without JavaScript and with: the select on Edit Profile saves, and the
// next bet's form starts on that currency, and the bet is made in it.
import {
  expect,
  jsEnabled,
  openEditProfile,
  test,
  untilHydrated,
} from "./fixtures";

const inDays = (n: number) =>
  new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

test("the profile's currency saves and a new bet defaults to it", async ({
  signedInPage: page,
}, testInfo) => {
  await page.goto("/profile");
  await openEditProfile(page, testInfo);
  const select = page.getByLabel("Currency for new bets");
  await expect(select).toHaveValue("USD");
  await select.selectOption("EUR");
  const save = page.getByRole("button", { name: "Save changes" });
  if (jsEnabled(testInfo)) await untilHydrated(save);
  await save.click();
  await expect(
    page.getByText("Profile updated", { exact: true }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);

  // Saved: Edit Profile opens on it again.
  await openEditProfile(page, testInfo);
  await expect(page.getByLabel("Currency for new bets")).toHaveValue("EUR");

  await page.goto("/create-bet");
  await expect(page.getByLabel("Currency")).toHaveValue("EUR");
  await page.getByLabel("Title").fill("Penalty shoot-out");
  await page.getByLabel("Description").fill("Who scores the last one.");
  await page.getByLabel("Deadline date").fill(inDays(3));
  await page.getByLabel(/Wager amount/).fill("12");
  await page.getByRole("button", { name: "Create Bet" }).click();
  await expect(page).toHaveURL(/\/bet\/\d+$/);
  await expect(page.getByText("€12.00").first()).toBeVisible();
});
