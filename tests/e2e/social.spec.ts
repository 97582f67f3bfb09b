import type {
  BrowserContext,
  Page,
  PlaywrightWorkerArgs,
} from "@playwright/test";
import sharp from "sharp";
import {
  createPerson,
  expect,
  jsEnabled,
  openEditProfile,
  test,
  untilHydrated,
  type Person,
} from "./fixtures";

type Signed = Person & { cookie: string };

// The shared signIn fixture cannot set the production `__Host-` cookie on
// http://localhost (Chromium refuses it through CDP), so the browser context
// logs in through the API instead and keeps the cookie it is given.
async function switchTo(
  context: BrowserContext,
  _baseURL: string,
  who: Signed,
) {
  await context.clearCookies();
  const res = await context.request.post("/api/login", {
    data: { username: who.username, password: who.password },
    headers: { "Content-Type": "application/json" },
  });
  expect(res.status()).toBe(200);
}

/** A separate API client per person (its own cookie jar). */
function apiAs(
  playwright: PlaywrightWorkerArgs["playwright"],
  baseURL: string,
  who: Signed,
) {
  // Logs in afresh: registering the next person through the shared
  // `request` fixture ends the session its jar carried.
  const ctx = playwright.request.newContext({ baseURL }).then(async (c) => {
    const res = await c.post("/api/login", {
      data: { username: who.username, password: who.password },
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status()).toBe(200);
    return c;
  });
  const headers = { "Content-Type": "application/json" };
  return {
    post: async (url: string, data: unknown = {}) =>
      (await ctx).post(url, { data, headers }),
    get: async (url: string) => (await ctx).get(url),
  };
}

const bell = (page: Page) =>
  page.getByRole("banner").getByRole("link", { name: /^Notifications/ });

test.describe("friends", () => {
  test("search, send, accept and decline requests; activity and the bell", async ({
    page,
    context,
    baseURL,
    playwright,
  }, testInfo) => {
    const a = await createPerson("fa");
    const b = await createPerson("fb");
    const c = await createPerson("fc");

    // b finds a and sends a request
    await switchTo(context, baseURL!, b);
    await page.goto("/friends?tab=add");
    await page.getByRole("searchbox", { name: "Search by username" }).fill("x");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("Search query too short")).toBeVisible();
    await expect(
      page.getByText("Please enter at least 2 characters to search."),
    ).toBeVisible();

    await page
      .getByRole("searchbox", { name: "Search by username" })
      .fill("zzqq-nobody");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(
      page.getByText('No users found matching "zzqq-nobody"'),
    ).toBeVisible();

    await page
      .getByRole("searchbox", { name: "Search by username" })
      .fill(a.username);
    await page.getByRole("button", { name: "Search" }).click();
    const results = page.getByRole("list", { name: "Search results" });
    await expect(results.getByText(a.username)).toBeVisible();
    await expect(results).not.toContainText("@example.com");
    await results
      .getByRole("button", { name: `Add ${a.username} as a friend` })
      .click();
    await expect(
      page.getByText("Friend request sent", { exact: true }),
    ).toBeVisible();
    await expect(results.getByText("Request sent")).toBeVisible();

    // c asks too, through the API
    expect(
      (
        await apiAs(playwright, baseURL!, c).post("/api/friends", {
          friendId: a.id,
        })
      ).status(),
    ).toBe(201);

    // a sees two requests, accepts b and declines c
    await switchTo(context, baseURL!, a);
    await page.goto("/friends");
    await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
    await page.getByRole("link", { name: /Requests/ }).click();
    await expect(page).toHaveURL(/tab=requests/);
    const requests = page.getByRole("list", { name: "Friend requests" });
    await expect(requests.getByText(b.username)).toBeVisible();
    await expect(requests.getByText(c.username)).toBeVisible();
    await requests
      .getByRole("button", { name: `Accept ${b.username}` })
      .click();
    await expect(
      page.getByText("Friend request accepted", { exact: true }),
    ).toBeVisible();
    await expect(requests.getByText(b.username)).toHaveCount(0);
    await page
      .getByRole("list", { name: "Friend requests" })
      .getByRole("button", { name: `Decline ${c.username}` })
      .click();
    await expect(
      page.getByText("Friend request declined", { exact: true }),
    ).toBeVisible();
    await expect(page.getByText("No pending friend requests.")).toBeVisible();

    // the friends list, with the record and Invite to Bet
    await page.getByRole("link", { name: "Friends", exact: true }).click();
    const friends = page.getByRole("list", { name: "Friends" });
    await expect(friends.getByText(b.username)).toBeVisible();
    await expect(friends.getByText("0 wins · 0 losses")).toBeVisible();
    await expect(
      friends.getByText("No settled bets between you yet"),
    ).toBeVisible();
    await friends.getByText("Invite to Bet").click();
    await expect(friends.getByText("Feature coming soon")).toBeVisible();

    // activity: the two requests; opening the tab (JS) or the button clears the bell
    await page.goto("/notifications");
    await expect(
      page.getByRole("link", {
        name: `${c.username} sent you a friend request`,
      }),
    ).toHaveAttribute("href", "/friends?tab=requests");
    if (jsEnabled(testInfo)) {
      await expect(bell(page)).toHaveAccessibleName("Notifications");
    } else {
      await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
      await page.getByRole("button", { name: "Mark all as read" }).click();
      await expect(bell(page)).toHaveAccessibleName("Notifications");
    }
    await expect(
      page.getByRole("button", { name: "Mark all as read" }),
    ).toHaveCount(0);

    // b hears that a accepted
    const bActivity = await (
      await apiAs(playwright, baseURL!, b).get("/api/activity")
    ).json();
    expect(bActivity[0]).toMatchObject({ type: "friend_request_accepted" });
  });
});

test.describe("profile", () => {
  test("edit with a validation error first, upload an avatar, toggle a payment method", async ({
    page,
    context,
    baseURL,
    playwright,
  }, testInfo) => {
    const me = await createPerson("pr");
    await switchTo(context, baseURL!, me);
    await page.goto("/profile");
    await expect(
      page.getByRole("heading", { name: me.username }),
    ).toBeVisible();
    await expect(page.getByText(/^Member since \w+ \d{4}$/)).toBeVisible();
    await expect(page.getByText("Total Bets")).toBeVisible();
    await expect(
      page.getByRole("link", { name: "Platform Fees" }),
    ).toHaveAttribute("href", "/help/fees");
    await expect(
      page.getByRole("link", { name: "Help & Support" }),
    ).toHaveAttribute("href", "/help");

    const openEdit = () => openEditProfile(page, testInfo);

    await openEdit();
    const details = page.getByRole("form", { name: "Profile details" });
    await details.evaluate((f: HTMLFormElement) => (f.noValidate = true));
    await details.getByLabel("Username").fill("ab");
    await details.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Validation Error")).toBeVisible();
    await expect(
      page.getByText("Username: Username must be at least 3 characters"),
    ).toBeVisible();

    const newName = `${me.username}z`;
    await page
      .getByRole("form", { name: "Profile details" })
      .getByLabel("Username")
      .fill(newName);
    await page
      .getByRole("form", { name: "Profile details" })
      .getByRole("button", { name: "Save changes" })
      .click();
    await expect(
      page.getByText("Profile updated", { exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { name: newName })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // upload a picture
    await openEdit();
    const upload = page.getByRole("form", { name: "Upload a picture" });
    if (jsEnabled(testInfo)) {
      await upload.getByLabel("Upload a picture").setInputFiles({
        name: "huge.png",
        mimeType: "image/png",
        buffer: Buffer.alloc(2 * 1024 * 1024 + 1, 1),
      });
      await expect(
        upload.getByText("File size exceeds 2MB limit."),
      ).toBeVisible();
    }
    const png = await sharp({
      create: { width: 400, height: 300, channels: 3, background: "#2563eb" },
    })
      .png()
      .toBuffer();
    await upload
      .getByLabel("Upload a picture")
      .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
    if (jsEnabled(testInfo))
      await expect(
        upload.getByRole("img", { name: "Preview of the chosen image" }),
      ).toBeVisible();
    await upload.getByRole("button", { name: "Upload picture" }).click();
    await expect(
      page.getByText("Profile updated", { exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(
      page.getByRole("link", { name: "Edit Profile" }).locator("img"),
    ).toHaveAttribute("src", /^\/avatars\/\d+\?v=/);

    // payment methods: connect, then disconnect
    await page.getByRole("button", { name: "Connect Venmo" }).click();
    await expect(
      page.getByText("Payment method updated", { exact: true }),
    ).toBeVisible();
    const connected = page.getByRole("list", {
      name: "Connected payment methods",
    });
    await expect(connected.getByText("Venmo")).toBeVisible();
    await expect(connected.getByText("Connected")).toBeVisible();
    await connected.getByRole("button", { name: "Disconnect Venmo" }).click();
    await expect(page.getByText("No payment methods connected.")).toBeVisible();
    const user = await (
      await apiAs(playwright, baseURL!, { ...me, username: newName }).get(
        "/api/user",
      )
    ).json();
    expect(user.paymentMethods.venmoConnected).toBe(false);
    expect(user.username).toBe(newName);
  });

  test("the edit dialog closes by Escape, its ✕ and the backdrop, and gives focus back", async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    // Without JavaScript the link is a page of its own (the test above).
    test.skip(!jsEnabled(testInfo), "the dialog exists only with JavaScript");
    const me = await createPerson("dl");
    await switchTo(context, baseURL!, me);
    await page.goto("/profile");
    const edit = page.getByRole("link", { name: "Edit Profile" });
    await untilHydrated(edit);
    const dialog = page.getByRole("dialog", { name: "Edit Profile" });
    const closes: [string, () => Promise<void>][] = [
      ["Escape", () => page.keyboard.press("Escape")],
      ["✕", () => dialog.getByRole("button", { name: "Close" }).click()],
      // The backdrop: above the sheet, which sits at the bottom of a phone.
      ["backdrop", () => page.mouse.click(10, 10)],
    ];
    for (const [how, close] of closes) {
      await edit.click();
      await expect(dialog, how).toBeVisible();
      // Modal: the page behind it is inert, so focus starts inside it.
      await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
      await close();
      await expect(dialog, how).toHaveCount(0);
      await expect(edit, how).toBeFocused();
      await expect(page).toHaveURL(/\/profile$/);
    }
    // A text selection dragged out of a field and let go over the backdrop
    // is not a click on the backdrop: the dialog stays.
    await edit.click();
    const field = dialog.getByLabel("Username");
    const box = (await field.boundingBox())!;
    await page.mouse.move(box.x + 8, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(10, 10, { steps: 4 });
    await page.mouse.up();
    await expect(dialog).toBeVisible();
  });
});

test.describe("activity", () => {
  test("a friend joins my bet: the event shows, and the bell clears", async ({
    page,
    context,
    baseURL,
    playwright,
  }, testInfo) => {
    const owner = await createPerson("ow");
    const joiner = await createPerson("jo");
    const created = await apiAs(playwright, baseURL!, owner).post("/api/bets", {
      title: "Rain tomorrow",
      description: "It rains in the city tomorrow.",
      amount: 10,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      visibility: "public",
    });
    expect(created.status()).toBe(201);
    const bet = (await created.json()) as { id: number };
    const joined = await apiAs(playwright, baseURL!, joiner).post(
      `/api/bets/${bet.id}/join`,
    );
    expect(joined.status(), await joined.text()).toBe(200);

    await switchTo(context, baseURL!, owner);
    await page.goto("/");
    await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
    await bell(page).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(
      page.getByRole("link", {
        name: `${joiner.username} joined your bet "Rain tomorrow"`,
      }),
    ).toHaveAttribute("href", `/bet/${bet.id}`);
    if (!jsEnabled(testInfo))
      await page.getByRole("button", { name: "Mark all as read" }).click();
    await expect(bell(page)).toHaveAccessibleName("Notifications");
    const events = await (
      await apiAs(playwright, baseURL!, owner).get("/api/activity")
    ).json();
    expect(events[0]).toMatchObject({ type: "bet_joined", read: true });
  });

  test("an empty Activity tab and the Finances tab", async ({
    page,
    context,
    baseURL,
  }) => {
    await switchTo(context, baseURL!, await createPerson("em"));
    await page.goto("/notifications");
    await expect(page.getByText("No activity yet")).toBeVisible();
    await page.getByRole("link", { name: "Finances" }).click();
    await expect(page).toHaveURL(/tab=finances/);
    // The Finances tab is the finance panel itself, plus the full page.
    await expect(page.getByText("Net Profit").first()).toBeVisible();
    await expect(
      page.getByRole("link", { name: "Open full financial history" }),
    ).toBeVisible();
  });
});

test.describe("small screens", () => {
  test("the social pages fit 320 px without horizontal scrolling", async ({
    page,
    context,
    baseURL,
  }) => {
    const me = await createPerson("sm");
    await switchTo(context, baseURL!, me);
    await page.setViewportSize({ width: 320, height: 700 });
    for (const path of [
      "/friends",
      "/friends?tab=requests",
      `/friends?tab=add&q=${me.username.slice(0, 3)}`,
      "/profile",
      "/profile/edit",
      "/notifications",
      "/help",
    ]) {
      await page.goto(path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
