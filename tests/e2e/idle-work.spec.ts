// Work a page no longer does in the tasks of its load, but when the browser
// is next idle (docs/decisions/archive/1055-main-thread-at-the-floor.md), still
// happens by itself, with no tap: the time zone cookie the server reads
// dates by, and the toast that can be swiped away and dismissed, whether it
// came with the document or with a later navigation. Without JavaScript the
// toast is the server's plain message, as before.
import type { Page } from "@playwright/test";
import {
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
  untilHydrated,
} from "./fixtures";

// A zone that is not the machine's, so the cookie can only come from the browser.
test.use({ timezoneId: "Asia/Tokyo" });

/**
 * The toast with this title shows; with JavaScript it becomes the live
 * (Radix) one by itself, which a Dismiss button proves and closes.
 */
async function expectLiveToast(page: Page, title: string, js: boolean) {
  const text = page.getByText(title, { exact: true });
  const dismiss = page.getByRole("button", { name: "Dismiss" });
  await expect(text).toBeVisible();
  if (!js) {
    await expect(dismiss).toHaveCount(0);
    return;
  }
  await expect(dismiss).toBeVisible();
  await dismiss.click();
  await expect(text).toHaveCount(0);
}

test("the browser's time zone is kept in the cookie the server reads", async ({
  signedInPage: page,
  context,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "the boot script needs JavaScript");
  await page.goto("/my-bets");
  await expect
    .poll(async () => {
      const tz = (await context.cookies()).find((c) => c.name === "tz");
      return tz && { value: tz.value, path: tz.path, sameSite: tz.sameSite };
    })
    .toEqual({ value: "Asia%2FTokyo", path: "/", sameSite: "Lax" });
  const tz = (await context.cookies()).find((c) => c.name === "tz")!;
  // A year, as before: within a day of it.
  expect(Math.abs(tz.expires - (Date.now() / 1000 + 365 * 86400))).toBeLessThan(
    86400,
  );
});

test("a toast that comes with the document becomes the live one by itself", async ({
  page,
}, testInfo) => {
  const person = await createPerson();
  await page.goto("/auth");
  await page.getByLabel("Username").fill(person.username);
  await page.getByLabel("Password").fill(person.password);
  // /auth has no scripts: the sign-in is a document POST, and "/" comes
  // with its flash message in the HTML.
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectLiveToast(page, "Welcome back!", jsEnabled(testInfo));
});

test("a toast that comes with a later navigation is the live one", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const me = await createPerson("tl");
  await signIn(context, baseURL!, me.cookie);
  await page.goto("/profile/notifications");
  const box = page.getByLabel("Someone joins your bet by email");
  if (jsEnabled(testInfo)) await untilHydrated(box);
  await box.uncheck();
  await page.getByRole("button", { name: "Save" }).click();
  await expectLiveToast(
    page,
    "Notification settings saved",
    jsEnabled(testInfo),
  );
});
