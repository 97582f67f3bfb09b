import {
  createPerson,
  expect,
  jsEnabled,
  test,
  uniqueUsername,
  untilHydrated,
} from "./fixtures";

test.describe("accounts", () => {
  test("register with each validation error first, then succeed", async ({
    page,
  }, testInfo) => {
    await page.goto("/auth?tab=register");
    await expect(
      page.getByRole("heading", { name: "Create your account" }),
    ).toBeVisible();
    const form = page.getByRole("form", { name: "Register" });

    // The browser's own constraint checks would stop an empty submit; turn
    // them off to see the server's messages, which must match docs/product-rules.md#forms-and-messages.
    await form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Username is required")).toBeVisible();
    await expect(page.getByText("Email is required")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();

    const name = uniqueUsername("reg");
    await page
      .getByRole("form", { name: "Register" })
      .evaluate((f: HTMLFormElement) => (f.noValidate = true));
    await page.getByLabel("Username").fill(name);
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password", { exact: true }).fill("12345");
    await page.getByLabel("Confirm password").fill("99999");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Email is invalid")).toBeVisible();
    await expect(
      page.getByText("Password must be at least 6 characters"),
    ).toBeVisible();

    await page
      .getByRole("form", { name: "Register" })
      .evaluate((f: HTMLFormElement) => (f.noValidate = true));
    await page.getByLabel("Email").fill(`${name}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill("secret123");
    await page.getByLabel("Confirm password").fill("secret124");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Passwords do not match")).toBeVisible();

    await page.getByLabel("Password", { exact: true }).fill("secret123");
    await page.getByLabel("Confirm password").fill("secret123");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByText("Welcome to Fairshake", { exact: true }),
    ).toBeVisible();
    await expect(
      page.getByRole("link", { name: `Profile of ${name}` }),
    ).toBeVisible();
    void testInfo;
  });

  test("a taken username is refused with 409", async ({ page }) => {
    const existing = await createPerson();
    await page.goto("/auth?tab=register");
    await page.getByLabel("Username").fill(existing.username);
    await page.getByLabel("Email").fill(`new-${existing.username}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill("secret123");
    await page.getByLabel("Confirm password").fill("secret123");
    const response = page.waitForResponse(
      (r) => r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Create account" }).click();
    expect((await response).status()).toBe(409);
    await expect(page.getByText("Username already taken")).toBeVisible();
  });

  test("log in, log out, and a wrong password", async ({ page }) => {
    const person = await createPerson();
    await page.goto("/auth");
    await expect(
      page.getByRole("heading", { name: "Welcome back" }),
    ).toBeVisible();
    await page.getByLabel("Username").fill(person.username);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Invalid username or password")).toBeVisible();

    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByText("Welcome back!", { exact: true }),
    ).toBeVisible();

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByText("Logged out", { exact: true })).toBeVisible();
    await page.goto("/");
    await expect(page).toHaveURL(/\/auth\?return_to=%2F$/);
  });

  test("a protected page sends a visitor to log in and back", async ({
    page,
  }) => {
    const person = await createPerson();
    await page.goto("/?from=test");
    await expect(page).toHaveURL(/\/auth\?return_to=%2F%3Ffrom%3Dtest$/);
    await page.getByLabel("Username").fill(person.username);
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/\?from=test$/);
  });

  test("a session that ends between pages sends the next page to log in and back to it", async ({
    signedInPage: page,
    context,
  }, testInfo) => {
    await page.goto("/?from=home");
    const myBets = page.getByRole("link", { name: "My Bets" }).first();
    // With JavaScript the click is a client navigation: React Router asks
    // for `/my-bets.data`, and the way back must still be the page (docs/decisions/archive/0835-loaders-get-the-request-as-it-came.md).
    if (jsEnabled(testInfo)) await untilHydrated(myBets);
    await context.clearCookies({ name: /session/ });
    await myBets.click();
    await expect(page).toHaveURL(/\/auth\?return_to=%2Fmy-bets$/);
  });

  test("the auth page ships no JavaScript and links to the password reset", async ({
    page,
  }) => {
    await page.goto("/auth");
    // No script file and no React: only the login form's one inline line
    // that loads the passkey module where the browser has WebAuthn
    // (docs/product-rules.md#passkeys).
    expect(await page.locator("script[src]").count()).toBe(0);
    const inline = await page.locator("script").allTextContents();
    expect(inline).toHaveLength(1);
    expect(inline[0]).toMatch(
      /^if\(window\.PublicKeyCredential\)import\("\/assets\/passkey-sign-in-[\w-]+\.js"\)$/,
    );
    await page.getByRole("link", { name: "Forgot password" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    expect(await page.locator("script").count()).toBe(0);
  });
});

test("an unknown path shows 404 Page Not Found", async ({ page }) => {
  const response = await page.goto("/definitely/not/here");
  expect(response?.status()).toBe(404);
  await expect(
    page.getByRole("heading", { name: "404 Page Not Found" }),
  ).toBeVisible();
});

test("the fee calculator works from presets and the form", async ({
  page,
}, testInfo) => {
  await page.goto("/help/fees");
  await page.getByRole("link", { name: "Fee Calculator" }).click();
  await expect(page.getByLabel("Fee breakdown")).toContainText("$97.50");
  await page.getByRole("link", { name: "$500" }).click();
  await expect(page.getByLabel("Fee breakdown")).toContainText("$487.50");
  await page.getByLabel("Bet amount", { exact: true }).fill("15");
  await page.getByRole("button", { name: "Calculate" }).click();
  await expect(page.getByLabel("Fee breakdown")).toContainText("-$0.38");
  // Any bet currency, the fee rounded half up to its smallest unit.
  await page.getByLabel("Currency").selectOption("JPY");
  await page.getByLabel("Bet amount", { exact: true }).fill("1,001");
  await page.getByRole("button", { name: "Calculate" }).click();
  await expect(page.getByLabel("Fee breakdown")).toContainText("-¥25");
  await page.getByLabel("Bet amount", { exact: true }).fill("0");
  await page.getByRole("button", { name: "Calculate" }).click();
  await expect(page.getByText("Please enter a valid bet amount")).toBeVisible();
  expect(
    jsEnabled(testInfo) || (await page.locator("script").count()) === 0,
  ).toBe(true);
});
