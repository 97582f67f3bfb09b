// Fixtures: people are made through the API and signed in by their session
// cookie, not by clicking through the login page every time.
import {
  test as base,
  expect,
  request as playwrightRequest,
  type BrowserContext,
  type Locator,
  type Page,
} from "@playwright/test";

export type Person = { id: number; username: string; password: string };

let seq = 0;
export function uniqueUsername(prefix = "e2e") {
  seq += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid % 1000}${seq}`;
}

/**
 * Registers a new person through the API. Each person gets a request context
 * of their own: registering through a shared one would send the previous
 * person's cookie, and registration rotates (ends) the session it carries.
 */
export async function createPerson(
  prefix = "e2e",
  baseURL = `http://localhost:${process.env.E2E_PORT ?? 3210}`,
): Promise<Person & { cookie: string }> {
  const username = uniqueUsername(prefix);
  const password = "secret123";
  const own = await playwrightRequest.newContext({ baseURL });
  try {
    const res = await own.post("/api/register", {
      data: { username, email: `${username}@example.com`, password },
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status(), await res.text()).toBe(201);
    const user = (await res.json()) as { id: number };
    const setCookie =
      res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie")
        ?.value ?? "";
    const cookie = setCookie.split(";")[0]!;
    return { id: user.id, username, password, cookie };
  } finally {
    await own.dispose();
  }
}

export async function signIn(
  context: BrowserContext,
  baseURL: string,
  cookie: string,
) {
  const eq = cookie.indexOf("=");
  await context.addCookies([
    {
      name: cookie.slice(0, eq),
      value: cookie.slice(eq + 1),
      // Chromium refuses a `__Host-` cookie given by `url` ("Invalid cookie
      // fields"); a host-only domain with path "/" is accepted and sent.
      domain: new URL(baseURL).hostname,
      path: "/",
      httpOnly: true,
      secure: true,
      sameSite: "Lax",
    },
  ]);
}

/**
 * A JSON POST as `who`, from a cookie-less context of its own (signing up in
 * a shared jar would end the previous person's session). Answers the body.
 */
export async function apiPost(
  baseURL: string,
  who: { cookie: string },
  path: string,
  data: unknown = {},
) {
  const ctx = await playwrightRequest.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
  });
  try {
    const res = await ctx.post(path, {
      data,
      headers: { "Content-Type": "application/json", Cookie: who.cookie },
    });
    expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return res.status() === 204 ? null : await res.json();
  } finally {
    await ctx.dispose();
  }
}

/** Whether this project runs with JavaScript (the "js" project) or without. */
export function jsEnabled(testInfo: { project: { name: string } }) {
  return testInfo.project.name === "js";
}

/**
 * Waits until React has hydrated this element (its props are attached), so a
 * click runs the enhanced handler. Scripts load after the content, so a click
 * right after `goto` can land first and take the no-JS path instead (a real
 * link or form submission): correct for a person, but not what a test of the
 * enhanced behaviour means to check.
 */
export async function untilHydrated(locator: Locator) {
  await expect
    .poll(() =>
      locator.evaluate((element) =>
        Object.keys(element).some((key) => key.startsWith("__reactProps$")),
      ),
    )
    .toBe(true);
}

/**
 * Opens Edit Profile from /profile: the dialog with JavaScript, its page
 * (/profile/edit) without.
 */
export async function openEditProfile(
  page: Page,
  testInfo: { project: { name: string } },
) {
  const edit = page.getByRole("link", { name: "Edit Profile" });
  if (jsEnabled(testInfo)) await untilHydrated(edit);
  await edit.click();
  if (jsEnabled(testInfo))
    await expect(
      page.getByRole("dialog", { name: "Edit Profile" }),
    ).toBeVisible();
  else await expect(page).toHaveURL(/\/profile\/edit$/);
}

type Fixtures = {
  /** A fresh signed-in person and their page. */
  me: Person;
  signedInPage: Page;
};

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright needs the pattern
  me: async ({}, use) => {
    const person = await createPerson();
    await use(person);
  },
  signedInPage: async ({ page, context, baseURL }, use) => {
    const person = await createPerson();
    await signIn(context, baseURL!, person.cookie);
    await use(page);
  },
});

export { expect };
