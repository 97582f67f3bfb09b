// Fixtures: people are made through the API and signed in by their session
// cookie, not by clicking through the login page every time.
import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Page,
} from "@playwright/test";

export type Person = { id: number; username: string; password: string };

let seq = 0;
export function uniqueUsername(prefix = "e2e") {
  seq += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid % 1000}${seq}`;
}

export async function createPerson(
  request: APIRequestContext,
  prefix = "e2e",
): Promise<Person & { cookie: string }> {
  const username = uniqueUsername(prefix);
  const password = "secret123";
  const res = await request.post("/api/register", {
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

/** Whether this project runs with JavaScript (the "js" project) or without. */
export function jsEnabled(testInfo: { project: { name: string } }) {
  return testInfo.project.name === "js";
}

type Fixtures = {
  /** A fresh signed-in person and their page. */
  me: Person;
  signedInPage: Page;
};

export const test = base.extend<Fixtures>({
  me: async ({ request }, use) => {
    const person = await createPerson(request);
    await use(person);
  },
  signedInPage: async ({ page, context, request, baseURL }, use) => {
    const person = await createPerson(request);
    await signIn(context, baseURL!, person.cookie);
    await use(page);
  },
});

export { expect };
