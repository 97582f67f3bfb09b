// Nothing typed is lost, nothing happens twice (docs/product-rules.md#shaky-connections):
// the create-bet form's answer cut on its way back, the browser offline, a
// form left unsent while the page revalidates, and the same form posted
// twice without JavaScript.
import type { Page } from "@playwright/test";
import {
  apiPost,
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
  uniqueUsername,
  untilHydrated,
} from "./fixtures";

// A create-bet form the network lost (offline, or its answer cut) is kept on
// the phone and sent by itself under its first key (docs/product-rules.md#acting-offline,
// tests/e2e/offline-actions.spec.ts); its notice says so.
const NOT_SENT =
  "Saved on this phone — it will be sent when you're back online.";

function inDays(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function fillCreateBet(page: Page, title: string) {
  await page.goto("/create-bet");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Home team wins the derby.");
  await page.getByLabel("Deadline date").fill(inDays(3));
  await page.getByLabel("Wager amount ($)").fill("25");
}

/** The tab put away and brought back; answers once the page has revalidated. */
async function bringTabBack(page: Page) {
  const revalidated = page.waitForResponse(
    (res) => res.request().method() === "GET" && res.url().includes(".data"),
  );
  await page.evaluate(() => {
    const show = (state: "hidden" | "visible") => {
      Object.defineProperty(document, "visibilityState", {
        configurable: true,
        get: () => state,
      });
      document.dispatchEvent(new Event("visibilitychange"));
    };
    show("hidden");
    show("visible");
  });
  await revalidated;
}

async function myBetsTitled(page: Page, title: string) {
  const res = await page.request.get("/api/user/bets/created");
  expect(res.status()).toBe(200);
  const bets = (await res.json()) as { title: string }[];
  return bets.filter((bet) => bet.title === title).length;
}

test("an answer cut on its way back: the form stays filled, is kept, and goes again by itself under its key, making one bet", async ({
  signedInPage: page,
}, testInfo) => {
  test.skip(
    !jsEnabled(testInfo),
    "the browser's own resend is the no-JS test below",
  );
  const title = `Cut ${uniqueUsername("t")}`;
  await fillCreateBet(page, title);
  await untilHydrated(page.getByRole("button", { name: "Create Bet" }));
  // The first copy: the server makes the bet and answers; the answer never
  // arrives. A lost answer may have reached the server, so the form is kept
  // and sent again by itself under the same key (docs/product-rules.md#acting-offline). That copy is
  // held until the page has been looked at, then let through.
  const keys: string[] = [];
  let letThrough!: () => void;
  const released = new Promise<void>((resolve) => (letThrough = resolve));
  await page.route("**/create-bet.data*", async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    keys.push(
      new URLSearchParams(request.postData() ?? "").get("idempotencyKey")!,
    );
    if (keys.length === 1) {
      await route.fetch();
      return route.abort("connectionreset");
    }
    await released;
    return route.continue();
  });
  await page.getByRole("button", { name: "Create Bet" }).click();
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  await expect(page).toHaveURL(/\/create-bet$/);
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(page.getByLabel("Wager amount ($)")).toHaveValue("25");
  expect(await myBetsTitled(page, title)).toBe(1);

  // No tap: the kept form goes by itself, and its kept answer leads to the bet.
  await expect.poll(() => keys.length).toBe(2);
  // While that copy goes, the form still says it is saved on the phone.
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  letThrough();
  await expect(page).toHaveURL(/\/bet\/\d+$/);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  expect(keys[1], "sent again under its first key").toBe(keys[0]);
  expect(keys).toHaveLength(2);
  expect(await myBetsTitled(page, title)).toBe(1);
});

test("an unsent form keeps its key and its notice through a live event and a tab brought back, and going again makes one bet", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "revalidation happens only with JavaScript");
  const me = await createPerson("un");
  const friend = await createPerson("uf");
  await signIn(context, baseURL!, me.cookie);
  const title = `Unsent ${uniqueUsername("t")}`;
  await fillCreateBet(page, title);
  await untilHydrated(page.getByRole("button", { name: "Create Bet" }));
  await page.waitForLoadState("load"); // the live stream opens after it
  const key = page
    .getByRole("form", { name: "Create a bet" })
    .locator('input[name="idempotencyKey"]');
  // The server makes the bet and answers; the answer never arrives, for
  // every copy (the kept form's own tries too) until the line is back.
  let cut = true;
  const sentKeys: string[] = [];
  await page.route("**/create-bet.data*", async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    sentKeys.push(
      new URLSearchParams(request.postData() ?? "").get("idempotencyKey")!,
    );
    if (!cut) return route.continue();
    await route.fetch();
    await route.abort("connectionreset");
  });
  await page.getByRole("button", { name: "Create Bet" }).click();
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  const sentKey = await key.inputValue();
  expect(await myBetsTitled(page, title)).toBe(1);

  // A live event: a friend request reaches my activity, the page revalidates
  // (the header's unread count is the proof it did).
  await apiPost(baseURL!, friend, "/api/friends", { friendId: me.id });
  await expect(
    page.getByRole("link", { name: /^Notifications/ }),
  ).toHaveAccessibleName("Notifications, 1 unread");
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  expect(await key.inputValue()).toBe(sentKey);

  // The tab put away and brought back: the page revalidates again.
  await bringTabBack(page);
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  expect(await key.inputValue()).toBe(sentKey);
  await expect(page.getByLabel("Title")).toHaveValue(title);

  // The line is back: the kept form goes by itself (told now rather than
  // at its next try), and the kept answer leads to the one bet.
  cut = false;
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect(page).toHaveURL(/\/bet\/\d+$/);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  expect(await myBetsTitled(page, title)).toBe(1);
  expect(new Set(sentKeys), "every copy under the first key").toEqual(
    new Set([sentKey]),
  );
});

test("offline: the form stays filled, says it is saved, and goes once by itself back online", async ({
  signedInPage: page,
  context,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "offline sending needs the enhanced form");
  const title = `Offline ${uniqueUsername("t")}`;
  await fillCreateBet(page, title);
  await untilHydrated(page.getByRole("button", { name: "Create Bet" }));
  await context.setOffline(true);
  await page.getByRole("button", { name: "Create Bet" }).click();
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  const key = page
    .getByRole("form", { name: "Create a bet" })
    .locator('input[name="idempotencyKey"]');
  const sentKey = await key.inputValue();
  const sentKeys: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("create-bet"))
      sentKeys.push(
        new URLSearchParams(request.postData() ?? "").get("idempotencyKey") ??
          "",
      );
  });
  // Back online it goes by itself, under the key it was first sent with.
  await context.setOffline(false);
  await expect(page).toHaveURL(/\/bet\/\d+$/);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  expect(await myBetsTitled(page, title)).toBe(1);
  expect(sentKeys).toEqual([sentKey]);
});

test("without JavaScript the same form posted twice makes one bet, and both answers lead to it", async ({
  signedInPage: page,
}, testInfo) => {
  test.skip(jsEnabled(testInfo), "the enhanced form is the tests above");
  const title = `Twice ${uniqueUsername("t")}`;
  await fillCreateBet(page, title);
  // What the browser sends, sent twice (a reload of the POST, or back and submit).
  const form = page.getByRole("form", { name: "Create a bet" });
  const fields = await form.evaluate((element) =>
    [...new FormData(element as HTMLFormElement)].map(([k, v]) => [
      k,
      String(v),
    ]),
  );
  expect(fields.some(([k]) => k === "idempotencyKey")).toBe(true);
  const post = () =>
    page.request.post("/create-bet", {
      form: Object.fromEntries(fields),
      maxRedirects: 0,
    });
  const first = await post();
  const second = await post();
  expect(first.status()).toBe(302);
  expect(second.status()).toBe(302);
  expect(second.headers()["location"]).toBe(first.headers()["location"]);
  expect(await myBetsTitled(page, title)).toBe(1);
  await page.goto(second.headers()["location"]!);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
});
