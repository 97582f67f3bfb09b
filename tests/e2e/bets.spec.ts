// Bets, end to end, with JavaScript on and off (each test runs in both
// projects): create, see, find, join by code / link / feed, edit, delete,
// and the share page as a crawler and as a visitor sees it.
import type { APIRequestContext, Page } from "@playwright/test";
import { request as playwrightRequest } from "@playwright/test";
import {
  expect,
  jsEnabled,
  signIn,
  test,
  uniqueUsername,
  untilHydrated,
} from "./fixtures";

type Api = {
  id: number;
  username: string;
  cookie: string;
  api: APIRequestContext;
};

/** A fresh person with their own signed-in API context. */
async function personWithApi(baseURL: string, prefix = "bet"): Promise<Api> {
  const api = await playwrightRequest.newContext({ baseURL });
  const username = uniqueUsername(prefix);
  const res = await api.post("/api/register", {
    data: { username, email: `${username}@example.com`, password: "secret123" },
  });
  expect(res.status(), await res.text()).toBe(201);
  const cookie =
    res
      .headersArray()
      .find((h) => h.name.toLowerCase() === "set-cookie")
      ?.value.split(";")[0] ?? "";
  return { id: (await res.json()).id, username, cookie, api };
}

const inDays = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function apiBet(
  who: Api,
  over: Record<string, unknown> = {},
): Promise<{ id: number; code: string }> {
  const res = await who.api.post("/api/bets", {
    data: {
      title: `Bet ${uniqueUsername("t")}`,
      description: "Whoever loses buys lunch.",
      amount: 20,
      deadline: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      visibility: "public",
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

async function noNativeValidation(page: Page, name: string) {
  await page
    .getByRole("form", { name })
    .evaluate((f: HTMLFormElement) => (f.noValidate = true));
}

test.describe("bets", () => {
  test("create a bet: validation errors first, then see it on its page and in My Bets", async ({
    signedInPage: page,
  }, testInfo) => {
    await page.goto("/create-bet");
    await expect(
      page.getByRole("heading", { name: "Create a Bet" }),
    ).toBeVisible();
    await expect(page.getByLabel("Wager amount ($)")).toHaveValue("10");
    await expect(page.getByLabel("Public")).toBeChecked();
    await expect(
      page.getByText("Set when the bet will close for new participants"),
    ).toBeVisible();
    await expect(page.getByText("$9.75")).toBeVisible();
    await expect(
      page.getByRole("link", { name: "Learn more about our fees" }),
    ).toHaveAttribute("href", "/help/fees");
    if (jsEnabled(testInfo)) {
      await untilHydrated(page.getByLabel("Include specific time"));
      await page.getByLabel("Wager amount ($)").fill("100");
      await expect(page.getByTestId("fee-preview")).toContainText("-$2.50");
      await expect(page.getByTestId("fee-preview")).toContainText("$97.50");
      await page
        .getByRole("button", { name: "About the platform fee" })
        .hover();
      await expect(page.getByRole("tooltip")).toHaveText(
        "A small fee covers payment processing and platform maintenance.",
      );
      // The time switch fills the time with now and clears it when turned off.
      const time = page.getByLabel("Deadline time");
      await expect(time).toBeDisabled();
      await page.getByText("Include specific time").click();
      await expect(time).toBeEnabled();
      await expect(time).not.toHaveValue("");
      await page.getByText("Include specific time").click();
      await expect(time).toHaveValue("");
    } else {
      await expect(page.getByLabel("Time zone")).toHaveValue("UTC");
    }

    // Server-side messages (docs/product-rules.md#forms-and-messages), with the browser's checks off.
    await noNativeValidation(page, "Create a bet");
    await page.getByLabel("Title").fill("a");
    await page.getByLabel("Description").fill("");
    await page.getByRole("button", { name: "Create Bet" }).click();
    await expect(page.getByText("Error creating bet")).toBeVisible();
    await expect(
      page.getByText("Please check your form inputs and try again"),
    ).toBeVisible();
    await expect(
      page.getByText("Title must be at least 2 characters."),
    ).toBeVisible();
    await expect(
      page.getByText("Description must be at least 2 characters."),
    ).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue("a");

    await noNativeValidation(page, "Create a bet");
    const title = `Derby <b>night</b> "${uniqueUsername("c")}" 🎲`;
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description").fill("Home team wins the derby.");
    await page.getByLabel("Deadline date").fill(inDays(-2));
    await page.getByRole("button", { name: "Create Bet" }).click();
    await expect(page.getByText("Invalid deadline")).toBeVisible();
    await expect(
      page.getByText("Deadline must be in the future").first(),
    ).toBeVisible();

    await page.getByLabel("Deadline date").fill(inDays(3));
    await page.getByLabel("Wager amount ($)").fill("25");
    await page.getByLabel("Private").check();
    await page.getByRole("button", { name: "Create Bet" }).click();
    await expect(page).toHaveURL(/\/bet\/\d+$/);
    await expect(page.getByText("Bet created!", { exact: true })).toBeVisible();
    await expect(
      page.getByText(
        /^Your bet has been created successfully with code [A-Z2-9]{6}$/,
      ),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect(page.getByText("$25.00")).toBeVisible();
    await expect(page.getByText("1/2 participants")).toBeVisible();
    await expect(page.getByText("Pending", { exact: true })).toBeVisible();
    await expect(
      page.getByRole("img", { name: /QR code of the join link/ }),
    ).toBeVisible();
    const code = await page.getByLabel("Bet code").textContent();
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    await expect(page.locator("#share-link")).toHaveValue(
      new RegExp(`/share/\\d+\\?code=${code}$`),
    );

    await page.getByRole("link", { name: "My Bets" }).click();
    await expect(page).toHaveURL(/\/my-bets$/);
    const card = page.getByRole("listitem").filter({ hasText: title });
    await expect(card).toContainText("$25");
    await expect(card).toContainText("1/2 participants");
    await expect(card).toContainText(/Ends [A-Z][a-z]{2} \d{1,2}/);
    await expect(card.getByRole("link", { name: "Edit" })).toBeVisible();
    await page.getByRole("link", { name: "Created" }).click();
    await expect(page).toHaveURL(/tab=created/);
    await expect(
      page.getByRole("listitem").filter({ hasText: title }),
    ).toBeVisible();
    await page.getByRole("link", { name: "Completed" }).click();
    await expect(
      page.getByText(/Settled bets appear here once they are settled/),
    ).toBeVisible();
  });

  test("join by code from Discover, as another person", async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    const creator = await personWithApi(baseURL!);
    const bet = await apiBet(creator, {
      visibility: "private",
      title: "Private by code",
    });
    const joiner = await personWithApi(baseURL!);
    await signIn(context, baseURL!, joiner.cookie);

    await page.goto("/search");
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page.getByText("Please enter a bet code")).toBeVisible();
    // Typed before hydration, the controlled field would be reset by it
    // (the scripts start after the first paint, docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md).
    if (jsEnabled(testInfo)) await untilHydrated(page.getByLabel("Bet code"));
    await page.getByLabel("Bet code").fill("abc");
    await page.getByRole("button", { name: "Find" }).click();
    await expect(
      page.getByText("Bet codes must be exactly 6 characters"),
    ).toBeVisible();
    if (jsEnabled(testInfo)) await untilHydrated(page.getByLabel("Bet code"));
    await page.getByLabel("Bet code").fill(bet.code.toLowerCase());
    if (jsEnabled(testInfo))
      await expect(page.getByLabel("Bet code")).toHaveValue(bet.code);
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page).toHaveURL(new RegExp(`/bet/${bet.id}$`));
    await expect(
      page.getByRole("heading", { name: "Private by code" }),
    ).toBeVisible();
    await page.getByRole("button", { name: /Join Bet/ }).click();
    await expect(
      page.getByText("You joined the bet!", { exact: true }),
    ).toBeVisible();
    await expect(page.getByText("2/2 participants")).toBeVisible();
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
    await expect(
      page.getByRole("link", { name: "Propose Settlement" }),
    ).toBeVisible();
  });

  test("join by /join/{code}; a stale page is refused with 409", async ({
    page,
    context,
    baseURL,
  }) => {
    const creator = await personWithApi(baseURL!);
    const bet = await apiBet(creator, { title: "Join by code page" });
    const joiner = await personWithApi(baseURL!);
    await signIn(context, baseURL!, joiner.cookie);

    await page.goto(`/join/${bet.code.toLowerCase()}`);
    await expect(page.getByText(bet.code, { exact: true })).toBeVisible();
    await expect(
      page.getByRole("heading", { name: "Join by code page" }),
    ).toBeVisible();
    await expect(page.getByText("$20.00")).toBeVisible();
    await expect(page.locator("script")).toHaveCount(0);

    // The creator changes the terms while the page is open (docs/product-rules.md#joining).
    const put = await creator.api.put(`/api/bets/${bet.id}`, {
      data: {
        title: "Join by code page",
        description: "New terms: loser buys dinner.",
        amount: 200,
        deadline: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        visibility: "public",
      },
    });
    expect(put.status()).toBe(200);
    const refused = page.waitForResponse(
      (r) => r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Join This Bet" }).click();
    expect((await refused).status()).toBe(409);
    await expect(page.getByText("Failed to join bet")).toBeVisible();
    await expect(
      page.getByText(
        "This bet changed while you were looking. Please review it again.",
      ),
    ).toBeVisible();

    await page.goto(`/join/${bet.code}`);
    await expect(page.getByText("$200.00")).toBeVisible();
    await page.getByRole("button", { name: "Join This Bet" }).click();
    await expect(page).toHaveURL(new RegExp(`/bet/${bet.id}$`));
    await expect(page.getByText("2/2 participants")).toBeVisible();
  });

  test("join from the public feed", async ({ page, context, baseURL }) => {
    const creator = await personWithApi(baseURL!);
    const title = `Feed bet ${uniqueUsername("f")}`;
    const bet = await apiBet(creator, { title });
    const joiner = await personWithApi(baseURL!);
    await signIn(context, baseURL!, joiner.cookie);
    await page.goto("/search");
    const row = page.getByRole("listitem").filter({ hasText: title });
    await expect(row).toContainText(bet.code);
    await expect(row).toContainText("$20");
    await row.getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/bet/${bet.id}$`));
    await page.getByRole("button", { name: /Join Bet/ }).click();
    await expect(page.getByText("2/2 participants")).toBeVisible();
    await page.goto("/my-bets?tab=joined");
    await expect(
      page.getByRole("listitem").filter({ hasText: title }),
    ).toBeVisible();
  });

  test("join by share link: a visitor is sent to log in and comes back", async ({
    page,
    baseURL,
  }) => {
    const creator = await personWithApi(baseURL!);
    const bet = await apiBet(creator, {
      visibility: "private",
      title: "Shared link bet",
    });
    const joiner = await personWithApi(baseURL!);
    await page.goto(`/share/${bet.id}?code=${bet.code}`);
    await expect(page).toHaveURL(/\/auth\?return_to=/);
    expect(new URL(page.url()).searchParams.get("return_to")).toBe(
      `/share/${bet.id}?code=${bet.code}`,
    );
    await page.getByLabel("Username").fill(joiner.username);
    await page.getByLabel("Password").fill("secret123");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(new RegExp(`/bet/${bet.id}$`));
    await expect(
      page.getByRole("heading", { name: "Shared link bet" }),
    ).toBeVisible();
    await page.getByRole("button", { name: /Join Bet/ }).click();
    await expect(page.getByText("2/2 participants")).toBeVisible();
  });

  test("the share page as a crawler sees it: tags, no JavaScript", async ({
    baseURL,
  }) => {
    const creator = await personWithApi(baseURL!);
    const bet = await apiBet(creator, { title: "Crawler sees this" });
    const crawler = await playwrightRequest.newContext({ baseURL });
    const res = await crawler.get(`/share/${bet.id}`, { maxRedirects: 0 });
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain(
      `<meta property="og:title" content="Crawler sees this"/>`,
    );
    expect(html).toMatch(
      new RegExp(
        `<meta property="og:image" content="https?://[^"]+/api/bets/${bet.id}/share-image"/>`,
      ),
    );
    expect(html).toContain(
      `<meta name="twitter:card" content="summary_large_image"/>`,
    );
    expect(html).toContain(`http-equiv="refresh"`);
    expect(html).not.toMatch(/<script/i);
    const image = await crawler.get(`/api/bets/${bet.id}/share-image`);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");
  });

  test("a second view of a bet page paints its preview from the browser's cache", async ({
    page,
    context,
    baseURL,
  }) => {
    const creator = await personWithApi(baseURL!);
    const bet = await apiBet(creator, { title: "Cached preview" });
    await signIn(context, baseURL!, creator.cookie);
    const preview = page.getByRole("img", { name: "Preview not available" });
    // Bytes the preview brought over the network on this view: 0 when the
    // browser's cache answered without asking the server (a 304 has headers).
    const previewTransfer = () =>
      preview.evaluate((img: HTMLImageElement) => {
        const entry = performance.getEntriesByName(img.currentSrc)[0] as
          PerformanceResourceTiming | undefined;
        return entry ? entry.transferSize : null;
      });
    await page.goto(`/bet/${bet.id}`);
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete))
      .toBe(true);
    expect(await previewTransfer()).toBeGreaterThan(0);
    await page.goto("/");
    await page.goto(`/bet/${bet.id}`);
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete))
      .toBe(true);
    expect(await previewTransfer()).toBe(0);
  });

  test("edit, then delete with a second confirmation, a bet nobody joined", async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    const creator = await personWithApi(baseURL!);
    const bet = await apiBet(creator, { title: "Edit me please" });
    await signIn(context, baseURL!, creator.cookie);
    await page.goto(`/edit-bet/${bet.id}`);
    await expect(page.getByLabel("Title")).toHaveValue("Edit me please");

    // Hydration resets a textarea typed into before it (docs/decisions/archive/0830-nothing-runs-before-the-first-paint.md).
    if (jsEnabled(testInfo))
      await untilHydrated(page.getByLabel("Description"));
    await noNativeValidation(page, "Edit bet");
    await page.getByLabel("Title").fill("ab");
    await page.getByLabel("Description").fill("short");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(
      page.getByText("Title must be at least 3 characters"),
    ).toBeVisible();
    await expect(
      page.getByText("Description must be at least 10 characters"),
    ).toBeVisible();

    await page.getByLabel("Title").fill("Edited bet title");
    await page
      .getByLabel("Description")
      .fill("A longer description for the edit.");
    await page.getByLabel("Wager amount ($)").fill("35");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(new RegExp(`/bet/${bet.id}$`));
    await expect(page.getByText("Bet updated", { exact: true })).toBeVisible();
    await expect(
      page.getByRole("heading", { name: "Edited bet title" }),
    ).toBeVisible();
    await expect(page.getByText("$35.00")).toBeVisible();

    await page.getByRole("link", { name: "Delete Bet" }).click();
    await expect(page).toHaveURL(
      new RegExp(`/bet/${bet.id}/edit\\?confirm=delete$`),
    );
    await expect(
      page.getByRole("heading", { name: "Delete this bet?" }),
    ).toBeVisible();
    await page.getByRole("button", { name: "Yes, delete bet" }).click();
    await expect(page).toHaveURL(/\/my-bets$/);
    await expect(page.getByText("Bet deleted", { exact: true })).toBeVisible();
    await expect(page.getByText("Edited bet title")).toHaveCount(0);
    const gone = await creator.api.get(`/api/bets/${bet.id}`);
    expect(gone.status()).toBe(404);
  });

  test("someone else cannot edit: 'Access denied' and back to My Bets", async ({
    page,
    context,
    baseURL,
  }) => {
    const creator = await personWithApi(baseURL!);
    const bet = await apiBet(creator);
    const other = await personWithApi(baseURL!);
    await signIn(context, baseURL!, other.cookie);
    await page.goto(`/bet/${bet.id}/edit`);
    await expect(page).toHaveURL(/\/my-bets$/);
    await expect(
      page.getByText("Access denied", { exact: true }),
    ).toBeVisible();
    await expect(
      page.getByText("You can only edit bets you've created.", {
        exact: true,
      }),
    ).toBeVisible();
  });

  test("the dashboard counts active bets and what is at stake", async ({
    page,
    context,
    baseURL,
  }) => {
    const me = await personWithApi(baseURL!);
    const other = await personWithApi(baseURL!);
    const mine = await apiBet(me, { title: "Dashboard mine", amount: 30 });
    await other.api.post(`/api/bets/${mine.id}/join`, { data: {} });
    await apiBet(me, { title: "Dashboard pending", amount: 5 });
    await signIn(context, baseURL!, me.cookie);
    await page.goto("/");
    await expect(page.getByText("2 created · 0 joined")).toBeVisible();
    await expect(page.getByText("$30.00")).toBeVisible();
    await expect(page.getByText("1 active bet", { exact: true })).toBeVisible();
    await page.getByText("Show bets").click();
    const list = page.getByRole("list", { name: "Active bets" });
    await expect(list).toContainText("Dashboard mine");
    await expect(list).toContainText("Created");
    await expect(list).toContainText(`with ${me.username}`);
  });
});
