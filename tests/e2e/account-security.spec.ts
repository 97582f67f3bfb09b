// Getting back in and looking after the account (docs/product-rules.md#accounts),
// with JavaScript and without: forgot → the mail a real SMTP server received
// → a new password → signed in, the old session dead; change the password;
// see the devices and sign one out, then every other one.
import {
  request as playwrightRequest,
  type Browser,
  type Page,
} from "@playwright/test";
import {
  createPerson,
  expect,
  jsEnabled,
  openEditProfile,
  signIn,
  test,
} from "./fixtures";
import { linkInMail } from "./mail";

type Person = Awaited<ReturnType<typeof createPerson>>;
const emailOf = (p: Person) => `${p.username}@example.com`;

const FIREFOX_ON_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";

const toast = (page: Page, text: string) =>
  expect(page.getByText(text, { exact: true }).first()).toBeVisible();

/** Whether a session cookie still opens the account (an API call with it). */
async function sessionAlive(baseURL: string, cookie: string) {
  const ctx = await playwrightRequest.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
  });
  try {
    const res = await ctx.get("/api/user", { headers: { Cookie: cookie } });
    return res.status() === 200;
  } finally {
    await ctx.dispose();
  }
}

/** Another device: its own browser, signed in through the login form. */
async function otherDevice(
  browser: Browser,
  baseURL: string,
  who: Person,
  js: boolean,
  password = who.password,
) {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: js,
    userAgent: FIREFOX_ON_WINDOWS,
  });
  const page = await context.newPage();
  await page.goto("/auth");
  await page.getByLabel("Username").fill(who.username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/$/);
  return { context, page };
}

test("forgot password → mailed link → new password → signed in, the old session dead", async ({
  page,
  baseURL,
}) => {
  const who = await createPerson("fp");
  expect(await sessionAlive(baseURL!, who.cookie)).toBe(true);

  await page.goto("/auth");
  await page.getByRole("link", { name: "Forgot password" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Username or email").fill(emailOf(who));
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(
    page.getByText("If an account matches, we sent a reset link to its email."),
  ).toBeVisible();

  const link = await linkInMail(
    emailOf(who),
    "Reset your Fairshake password",
    "/reset-password",
  );
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("brandnew1");
  await page.getByLabel("Confirm new password").fill("brandnew2");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("brandnew1");
  await page.getByLabel("Confirm new password").fill("brandnew1");
  await page.getByRole("button", { name: "Set new password" }).click();
  await toast(page, "Password changed");
  await expect(page).toHaveURL(/\/$/);

  // This browser is signed in as them; the session from before is dead.
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText(who.username).first()).toBeVisible();
  expect(await sessionAlive(baseURL!, who.cookie)).toBe(false);

  // The link worked once.
  await page.goto(link);
  await expect(
    page.getByText("This reset link is invalid or has expired."),
  ).toBeVisible();
});

test("change the password on the security page: other devices signed out", async ({
  page,
  baseURL,
}) => {
  const who = await createPerson("cp");
  // This browser signs in through the form; the registration's session is the other device.
  await page.goto("/auth");
  await page.getByLabel("Username").fill(who.username);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/profile");
  await page.getByRole("link", { name: "Password & devices" }).click();
  await expect(page).toHaveURL(/\/profile\/security$/);

  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("brandnew1");
  await page.getByLabel("Confirm new password").fill("brandnew1");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Current password is incorrect")).toBeVisible();
  expect(await sessionAlive(baseURL!, who.cookie)).toBe(true);

  await page.getByLabel("Current password").fill(who.password);
  await page.getByLabel("New password", { exact: true }).fill("brandnew1");
  await page.getByLabel("Confirm new password").fill("brandnew1");
  await page.getByRole("button", { name: "Change password" }).click();
  await toast(page, "Password changed");
  // Still signed in here; the other device is not.
  await page.goto("/profile/security");
  await expect(page).toHaveURL(/\/profile\/security$/);
  expect(await sessionAlive(baseURL!, who.cookie)).toBe(false);
});

test("sign out another device, then everywhere else", async ({
  page,
  context,
  baseURL,
  browser,
}, testInfo) => {
  const who = await createPerson("so");
  await signIn(context, baseURL!, who.cookie);
  const js = jsEnabled(testInfo);
  const laptop = await otherDevice(browser, baseURL!, who, js);

  await page.goto("/profile/security");
  const devices = page.getByRole("list", { name: "Signed-in devices" });
  await expect(devices.getByRole("listitem")).toHaveCount(2);
  await expect(devices.getByText("This device")).toHaveCount(1);
  const firefox = devices
    .getByRole("listitem")
    .filter({ hasText: "Firefox on Windows" });
  await expect(firefox).toHaveCount(1);
  await firefox.getByRole("button", { name: /Sign out/ }).click();
  await toast(page, "Device signed out");
  await expect(devices.getByRole("listitem")).toHaveCount(1);

  // The laptop is signed out: its next page asks for the password.
  await laptop.page.goto("/profile");
  await expect(laptop.page).toHaveURL(/\/auth\?return_to=%2Fprofile$/);
  await laptop.context.close();

  // Two more devices, then "Sign out everywhere else".
  const phone = await otherDevice(browser, baseURL!, who, js);
  const tablet = await otherDevice(browser, baseURL!, who, js);
  await page.goto("/profile/security");
  await expect(devices.getByRole("listitem")).toHaveCount(3);
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await toast(page, "Signed out everywhere else");
  await expect(devices.getByRole("listitem")).toHaveCount(1);
  await expect(
    page.getByText("You are signed in on this device only."),
  ).toBeVisible();
  for (const device of [phone, tablet]) {
    await device.page.goto("/profile");
    await expect(device.page).toHaveURL(/\/auth\?return_to=%2Fprofile$/);
    await device.context.close();
  }
  // This one stays.
  expect(await sessionAlive(baseURL!, who.cookie)).toBe(true);
});

test("changing the email asks for the current password; the name alone does not", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const who = await createPerson("ce");
  await signIn(context, baseURL!, who.cookie);
  await page.goto("/profile");
  const openEdit = () => openEditProfile(page, testInfo);
  await openEdit();
  const details = () => page.getByRole("form", { name: "Profile details" });
  const newEmail = `moved-${emailOf(who)}`;

  // Without the password: refused, the typed address kept, nothing changed.
  await details().getByLabel("Email").fill(newEmail);
  await details().getByRole("button", { name: "Save changes" }).click();
  await expect(
    details().getByText("Current password: Current password is incorrect"),
  ).toBeVisible();
  await expect(details().getByLabel("Email")).toHaveValue(newEmail);
  await expect(details().getByLabel("Current password")).toHaveValue("");

  // With it: saved.
  await details().getByLabel("Email").fill(newEmail);
  await details().getByLabel("Current password").fill(who.password);
  await details().getByRole("button", { name: "Save changes" }).click();
  await toast(page, "Profile updated");
  await expect(page).toHaveURL(/\/profile$/);
  const user = await page.request.get("/api/user");
  expect((await user.json()).email).toBe(newEmail);

  // A new name needs no password.
  await openEdit();
  await details().getByLabel("Username").fill(`${who.username}n`);
  await details().getByRole("button", { name: "Save changes" }).click();
  await toast(page, "Profile updated");
  await expect(
    page.getByRole("heading", { name: `${who.username}n` }),
  ).toBeVisible();
});
