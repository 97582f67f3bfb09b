// Your data (docs/product-rules.md#your-data), with JavaScript and without: the export downloads
// as JSON from /profile/data, and deleting the account refuses a wrong
// password, then signs this browser out and sends it to the front door.
import fs from "node:fs";
import { apiPost, createPerson, expect, signIn, test } from "./fixtures";

test("the export downloads your data as JSON from Your data", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await createPerson("exp");
  await signIn(context, baseURL!, me.cookie);
  await page.goto("/profile");
  await page.getByRole("link", { name: "Your data" }).click();
  await expect(page).toHaveURL(/\/profile\/data$/);
  await expect(
    page.getByRole("heading", { name: "Your data", level: 1 }),
  ).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download my data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^fairshake-data-${me.username}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
  );
  const data = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
  expect(data.profile).toMatchObject({
    id: me.id,
    username: me.username,
    email: `${me.username}@example.com`,
  });
  expect(JSON.stringify(data)).not.toMatch(/argon2|passwordHash|idHash/);
});

test("deleting the account: a wrong password is refused, then it is deleted and this browser signed out", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await createPerson("del");
  await signIn(context, baseURL!, me.cookie);
  await page.goto("/profile/data");
  const form = page.getByRole("region", { name: "Delete your account" });
  await form.getByLabel("Your password").fill("not-my-password");
  await form.getByRole("checkbox").check();
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(
    form.getByText("Password is incorrect", { exact: true }).first(),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/profile\/data$/);

  await form.getByLabel("Your password").fill(me.password);
  await form.getByRole("checkbox").check();
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(
    page.getByText("Your account has been deleted", { exact: true }),
  ).toBeVisible();

  // Signed out, and the account cannot be signed into again
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?return_to=%2Fprofile$/);
  const login = await page.request.post("/api/login", {
    data: { username: me.username, password: me.password },
    headers: { "Content-Type": "application/json" },
  });
  expect(login.status()).toBe(401);
});

test("an open bet holds the account: the page names it and the delete is refused", async ({
  page,
  context,
  baseURL,
}) => {
  const me = await createPerson("hold");
  const title = `Held open ${Date.now().toString(36)}`;
  await apiPost(baseURL!, me, "/api/bets", {
    title,
    description: "Keeps the account open until it ends.",
    amount: 5,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
  });
  await signIn(context, baseURL!, me.cookie);
  await page.goto("/profile/data");
  const form = page.getByRole("region", { name: "Delete your account" });
  await expect(form.getByRole("link", { name: title })).toBeVisible();
  await form.getByLabel("Your password").fill(me.password);
  await form.getByRole("checkbox").check();
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(form.getByRole("alert")).toContainText(
    "Finish, cancel or pay your open bets first.",
  );
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/profile$/);
});
