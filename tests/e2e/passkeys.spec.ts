// Passkeys in a real browser (docs/product-rules.md#passkeys): Chromium's
// virtual authenticator (CDP WebAuthn) stands in for the phone's. Add one on
// the Security page, sign out, sign in with it from /auth (return_to
// honoured), the authenticator's counter moves, remove it, and a sign-in
// with it is then refused. Without JavaScript /auth has no passkey button
// and the password form works as before.
import type { CDPSession, Page } from "@playwright/test";
import {
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
  untilHydrated,
} from "./fixtures";
import { TestPasskey } from "../support/webauthn";

async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send(
    "WebAuthn.addVirtualAuthenticator",
    {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    },
  );
  return { cdp, authenticatorId };
}

async function signCount(cdp: CDPSession, authenticatorId: string) {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", {
    authenticatorId,
  });
  expect(credentials).toHaveLength(1);
  return credentials[0]!.signCount;
}

/** Signs this browser out without opening /auth (where the autofill would sign it straight back in). */
async function signOutQuietly(page: Page) {
  const res = await page.request.post("/logout", { maxRedirects: 0 });
  expect(res.status()).toBe(302);
}

test("add a passkey, sign in with it, remove it, then it is refused", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "WebAuthn needs JavaScript");
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const me = await createPerson("pk");
  await signIn(context, baseURL!, me.cookie);

  // Add: within 10 minutes of signing in, no password needed.
  await page.goto("/profile/security");
  const add = page.getByRole("form", { name: "Add a passkey" });
  await expect(add).toBeVisible();
  await untilHydrated(add.getByRole("button", { name: "Add a passkey" }));
  await add.getByLabel("Name (optional)").fill("Test phone");
  await add.getByRole("button", { name: "Add a passkey" }).click();
  const list = page.getByRole("list", { name: "Your passkeys" });
  await expect(list.getByText("Test phone", { exact: true })).toBeVisible();
  await expect(list.getByText(/last used never/)).toBeVisible();
  const madeWith = await signCount(cdp, authenticatorId);

  // Sign out from the Security page: /auth opens inside the app, and the
  // username field's autofill (conditional mediation) offers the passkey;
  // the virtual authenticator takes it, and the person is signed in.
  await page.getByRole("button", { name: /\(this device\)$/ }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByRole("link", { name: `Profile of ${me.username}` }),
  ).toBeVisible();
  const afterAutofill = await signCount(cdp, authenticatorId);
  expect(afterAutofill).toBeGreaterThan(madeWith);

  // Then with the button, in a browser without passkey autofill;
  // return_to is honoured.
  await page.addInitScript(() =>
    Object.defineProperty(
      PublicKeyCredential,
      "isConditionalMediationAvailable",
      { value: async () => false },
    ),
  );
  await signOutQuietly(page);
  await page.goto("/auth?return_to=%2Fprofile%2Fsecurity");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/profile\/security$/);
  await expect(list.getByText(/last used never/)).toHaveCount(0);
  expect(await signCount(cdp, authenticatorId)).toBeGreaterThan(afterAutofill);

  // An ordinary session: listed on the Security page.
  await expect(
    page
      .getByRole("list", { name: "Signed-in devices" })
      .getByText("This device"),
  ).toBeVisible();

  // Remove it; a sign-in with it is then refused.
  await page.getByRole("button", { name: "Remove Test phone" }).click();
  await expect(
    page.getByText("Passkey removed", { exact: true }),
  ).toBeVisible();
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  await signOutQuietly(page);
  await page.goto("/auth");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.locator("#passkey-status")).toHaveText(
    "This passkey is not registered here.",
  );
  await expect(page).toHaveURL(/\/auth/);
});

test("/auth stays a page without React; the passkey parts only with JavaScript", async ({
  page,
}, testInfo) => {
  const me = await createPerson("pkauth");
  await page.goto("/auth");
  // No React, no route modules: the page's one script is the passkey loader.
  expect(
    await page.locator("script[src], link[rel=modulepreload]").count(),
  ).toBe(0);
  const button = page.getByRole("button", { name: "Sign in with a passkey" });
  if (jsEnabled(testInfo)) {
    await expect(button).toBeVisible();
    const conditional = await page.evaluate(
      async () =>
        (await window.PublicKeyCredential?.isConditionalMediationAvailable?.()) ??
        false,
    );
    // Where the browser offers passkeys in autofill, the username field asks for them.
    if (conditional)
      await expect(page.getByLabel("Username")).toHaveAttribute(
        "autocomplete",
        "username webauthn",
      );
  } else {
    await expect(button).toHaveCount(0);
    await expect(page.getByLabel("Username")).toHaveAttribute(
      "autocomplete",
      "username",
    );
  }
  // The password form works as before.
  await page.getByLabel("Username").fill(me.username);
  await page.getByLabel("Password").fill(me.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Welcome back!", { exact: true })).toBeVisible();
});

test("name, rename and remove passkeys with plain forms at 390 px", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const me = await createPerson("pkforms");
  await signIn(context, baseURL!, me.cookie);
  // A passkey added through the API with one built by hand (the page's own
  // adding needs WebAuthn, proved above).
  const passkey = new TestPasskey(baseURL!);
  const options = await context.request.post("/api/user/passkeys/options", {
    data: {},
  });
  expect(options.status(), await options.text()).toBe(200);
  const added = await context.request.post("/api/user/passkeys", {
    data: {
      response: passkey.register((await options.json()).options),
      name: "Old phone",
    },
  });
  expect(added.status(), await added.text()).toBe(201);

  await page.goto("/profile/security");
  const list = page.getByRole("list", { name: "Your passkeys" });
  await expect(list.getByText("Old phone", { exact: true })).toBeVisible();
  await expect(list.getByText(/Made .* · last used never/)).toBeVisible();
  // Adding needs WebAuthn: without JavaScript the form is not there.
  if (!jsEnabled(testInfo))
    await expect(page.getByRole("form", { name: "Add a passkey" })).toHaveCount(
      0,
    );
  // Nothing wider than the phone's screen.
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
  ).toBeLessThanOrEqual(390);

  await list.getByLabel("Name of Old phone").fill("New phone");
  await list.getByRole("button", { name: "Rename Old phone" }).click();
  await expect(
    page.getByText("Passkey renamed", { exact: true }),
  ).toBeVisible();
  await expect(list.getByText("New phone", { exact: true })).toBeVisible();

  await list.getByRole("button", { name: "Remove New phone" }).click();
  await expect(
    page.getByText("Passkey removed", { exact: true }),
  ).toBeVisible();
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
});
