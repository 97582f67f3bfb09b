// Photos as evidence on a bet's messages (docs/product-rules.md#messages), at
// 390 px, with JavaScript and without: a message with a photo from the bet
// page's form, the other side sees it (by itself with JavaScript, on reload
// without), the approve screen and the referee's page show it above their
// buttons; a file that is not an image is refused with the text kept; a
// photo written offline, or whose send the network loses, is refused, not
// kept, with the text kept.
import sharp from "sharp";
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

const CANNOT_WAIT =
  "Photos can't wait on this phone to be sent. Send this message when you're back online, or remove the photos to send the text now. Your text is kept.";

async function photo(background = "#2563eb") {
  const buffer = await sharp({
    create: { width: 800, height: 600, channels: 3, background },
  })
    .jpeg()
    .toBuffer();
  return { name: "finish-line.jpg", mimeType: "image/jpeg", buffer };
}

/** A thumbnail that the browser really loaded (served to this person). */
async function expectLoaded(page: Page, name: string) {
  const img = page.getByRole("img", { name });
  await expect(img).toBeVisible();
  await expect
    .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  return img;
}

test("a message with a photo: the other side sees it, then the approve screen and the referee's page above their buttons", async ({
  page,
  context,
  baseURL,
  browser,
}, testInfo) => {
  const js = jsEnabled(testInfo);
  const a = await createPerson("pa");
  const b = await createPerson("pb");
  const ref = await createPerson("pr");
  await apiPost(baseURL!, a, "/api/friends", { friendId: ref.id });
  await apiPost(baseURL!, ref, "/api/friends/accept", { friendId: a.id });
  const bet = (await apiPost(baseURL!, a, "/api/bets", {
    title: `Photo finish ${uniqueUsername("t")}`,
    description: "The first across the line wins.",
    amount: 10,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
    refereeId: ref.id,
  })) as { id: number };
  await apiPost(baseURL!, b, `/api/bets/${bet.id}/join`);

  await signIn(context, baseURL!, a.cookie);
  const bobContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled: js,
    serviceWorkers: "block",
  });
  await signIn(bobContext, baseURL!, b.cookie);
  const bobPage = await bobContext.newPage();
  try {
    await bobPage.goto(`/bet/${bet.id}`);
    await expect(bobPage.getByText("No messages yet.")).toBeVisible();

    await page.goto(`/bet/${bet.id}`);
    const send = page.getByRole("button", { name: "Send message" });
    if (js) await untilHydrated(send);
    await page.getByLabel("Write a message").fill("Look at the finish line.");
    await page.getByLabel("Add photos (optional)").setInputFiles(await photo());
    await send.click();
    const mine = page.getByRole("list", { name: "Messages" });
    await expect(mine.getByText("Look at the finish line.")).toBeVisible();
    const thumb = await expectLoaded(page, `Photo 1 from ${a.username}`);
    if (js) await expect(page.getByLabel("Write a message")).toHaveValue("");
    // The full view: the photo itself, private to the bet's people.
    const full = await thumb.locator("xpath=..").getAttribute("href");
    const res = await page.request.get(full!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/webp");
    expect(res.headers()["cache-control"]).toMatch(/private/);
    const meta = await sharp(await res.body()).metadata();
    expect(meta.width).toBe(800);
    expect(meta.exif).toBeUndefined();

    // The other side: by itself with JavaScript, on reload without.
    if (!js) await bobPage.reload();
    await expect(
      bobPage
        .getByRole("list", { name: "Messages" })
        .getByText("Look at the finish line."),
    ).toBeVisible();
    await expectLoaded(bobPage, `Photo 1 from ${a.username}`);

    // Before a decision: the approve screen shows it above the buttons.
    await apiPost(baseURL!, a, `/api/bets/${bet.id}/propose-settlement`, {
      winnerId: a.id,
    });
    await bobPage.goto(`/settlements/${bet.id}/approve`);
    const aboveButton = async (p: Page, button: string) => {
      const img = await expectLoaded(p, `Photo 1 from ${a.username}`);
      const imgBox = (await img.boundingBox())!;
      const buttonBox = (await p
        .getByRole("button", { name: button })
        .boundingBox())!;
      expect(imgBox.y).toBeLessThan(buttonBox.y);
    };
    await aboveButton(bobPage, "Approve");
    await bobPage.goto(`/settlements/${bet.id}/reject`);
    await aboveButton(bobPage, "Reject Settlement");
    await apiPost(baseURL!, b, `/api/settlements/${bet.id}/reject`, {});
    await apiPost(baseURL!, b, `/api/bets/${bet.id}/refer`);

    // The referee sees it before ruling.
    await context.clearCookies();
    await signIn(context, baseURL!, ref.cookie);
    await page.goto(`/bet/${bet.id}/rule`);
    await aboveButton(page, "Record Ruling");
  } finally {
    await bobContext.close();
  }
});

test("a file that is not an image is refused with a message, the text kept", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const alice = await createPerson("pn");
  const bet = (await apiPost(baseURL!, alice, "/api/bets", {
    title: `Receipt ${uniqueUsername("t")}`,
    description: "Whoever is late buys the coffee.",
    amount: 10,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "private",
  })) as { id: number };
  await signIn(context, baseURL!, alice.cookie);
  await page.goto(`/bet/${bet.id}`);
  const send = page.getByRole("button", { name: "Send message" });
  if (jsEnabled(testInfo)) await untilHydrated(send);
  await page.getByLabel("Write a message").fill("Here is the receipt.");
  // Named .jpg, typed image/jpeg: only the bytes tell.
  await page.getByLabel("Add photos (optional)").setInputFiles({
    name: "receipt.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("not a picture at all, just text"),
  });
  await send.click();
  await expect(
    page.getByText("A photo must be a JPEG, PNG or WebP image."),
  ).toBeVisible();
  await expect(page.getByText("No messages yet.")).toBeVisible();
  await expect(page.getByLabel("Write a message")).toHaveValue(
    "Here is the receipt.",
  );
});

test("a photo written offline is refused, not kept, with the text kept; text alone still waits", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "without JavaScript nothing is kept");
  const alice = await createPerson("po");
  const bet = (await apiPost(baseURL!, alice, "/api/bets", {
    title: `Tunnel ${uniqueUsername("t")}`,
    description: "Whoever is late buys the coffee.",
    amount: 10,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "private",
  })) as { id: number };
  await signIn(context, baseURL!, alice.cookie);
  await page.goto(`/bet/${bet.id}`);
  const send = page.getByRole("button", { name: "Send message" });
  await untilHydrated(send);
  await context.setOffline(true);
  const box = page.getByLabel("Write a message");
  await box.fill("Proof from the tunnel.");
  const picker = page.getByLabel("Add photos (optional)");
  await picker.setInputFiles(await photo());
  await send.click();
  await expect(page.getByText(CANNOT_WAIT)).toBeVisible();
  await expect(box).toHaveValue("Proof from the tunnel.");
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);

  // Without the photo, the text waits on the phone as any message does.
  await picker.setInputFiles([]);
  await expect(page.getByText(CANNOT_WAIT)).toHaveCount(0);
  await send.click();
  await expect(
    page.getByText(
      "Saved on this phone — it will be sent when you're back online.",
    ),
  ).toBeVisible();
  await context.setOffline(false);
  const list = page.getByRole("list", { name: "Messages" });
  await expect(list.getByText("Proof from the tunnel.")).toBeVisible();
  const res = await page.request.get(`/api/bets/${bet.id}/messages`);
  const messages = (await res.json()) as {
    body: string;
    photos: unknown[];
  }[];
  expect(messages.map((m) => [m.body, m.photos.length])).toEqual([
    ["Proof from the tunnel.", 0],
  ]);
});

test("a send with a photo that the network loses says so and keeps the text", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "without JavaScript the browser says it");
  const alice = await createPerson("pl");
  const bet = (await apiPost(baseURL!, alice, "/api/bets", {
    title: `Lost ${uniqueUsername("t")}`,
    description: "Whoever is late buys the coffee.",
    amount: 10,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "private",
  })) as { id: number };
  await signIn(context, baseURL!, alice.cookie);
  await page.goto(`/bet/${bet.id}`);
  const send = page.getByRole("button", { name: "Send message" });
  await untilHydrated(send);
  // Online, but the connection drops under this one send.
  await page.route(`**/bet/${bet.id}.data*`, (route) =>
    route.request().method() === "POST" ? route.abort() : route.continue(),
  );
  const box = page.getByLabel("Write a message");
  await box.fill("Proof on a bad line.");
  await page.getByLabel("Add photos (optional)").setInputFiles(await photo());
  await send.click();
  await expect(page.getByText(CANNOT_WAIT)).toBeVisible();
  await expect(box).toHaveValue("Proof on a bad line.");
  await expect(
    page.getByRole("button", { name: /waiting to send/ }),
  ).toHaveCount(0);
  // Sent again once the line holds: it goes, photo and all.
  await page.unroute(`**/bet/${bet.id}.data*`);
  await send.click();
  const list = page.getByRole("list", { name: "Messages" });
  await expect(list.getByText("Proof on a bad line.")).toBeVisible();
  await expectLoaded(page, `Photo 1 from ${alice.username}`);
});
