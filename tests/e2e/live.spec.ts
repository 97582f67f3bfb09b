// Live pages (docs/product-rules.md#live-pages): with JavaScript the other
// side's move shows up by itself within 3 seconds, in the same document,
// without losing what is being typed; without JavaScript a waiting page says
// so and offers a plain Refresh link. These journeys run against a server of
// their own with two worker processes (WEB_CONCURRENCY=2; the shared e2e
// server is one process), so a move may be made on either worker.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  apiPost,
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
} from "./fixtures";

const LIVE_MS = 3_000;

let child: ChildProcess | undefined;
let dir = "";
let base = "";

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-live-"));
  child = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DEMO_MODE: "1",
      RATE_LIMITS: "off",
      SESSION_SECRET: "e2e-live-secret",
      PORT: "0",
      METRICS_PORT: "off",
      WEB_CONCURRENCY: "2",
      DATABASE_PATH: path.join(dir, "live.db"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(log)), 60_000);
    child!.stdout!.on("data", (c: Buffer) => {
      log += c.toString();
      const match = /workers listening on (http:\/\/localhost:\d+)/.exec(log);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child!.stderr!.on("data", (c: Buffer) => (log += c.toString()));
  });
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

const betBody = {
  title: "First snow before Friday",
  description: "It snows in the city before Friday.",
  amount: 12,
  deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  visibility: "public",
};

test("alice sees bob join and propose by itself, in the same document", async ({
  page,
  context,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "live updates need JavaScript");
  const alice = await createPerson("la", base);
  const bob = await createPerson("lb", base);
  const bet = await apiPost(base, alice, "/api/bets", betBody);
  await signIn(context, base, alice.cookie);
  await page.goto(`${base}/bet/${bet.id}`);
  await expect(page.getByText("1/2 participants")).toBeVisible();
  await expect(page.getByText("Waiting for someone to join.")).toBeVisible();
  // The stream opens after hydration and the load event.
  await page.waitForLoadState("load");
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = "same page";
  });
  await page.waitForTimeout(1_000);

  await apiPost(base, bob, `/api/bets/${bet.id}/join`);
  await expect(page.getByText("2/2 participants")).toBeVisible({
    timeout: LIVE_MS,
  });
  await expect(page.getByText("Waiting for someone to join.")).toHaveCount(0);

  await apiPost(base, bob, `/api/bets/${bet.id}/propose-settlement`, {
    winnerId: bob.id,
  });
  await expect(
    page.getByRole("link", { name: "Review and approve" }),
  ).toBeVisible({ timeout: LIVE_MS });
  expect(
    await page.evaluate(
      () => (window as unknown as { liveMarker?: string }).liveMarker,
    ),
  ).toBe("same page");
});

test("a draft survives an update, and the header's unread count moves", async ({
  page,
  context,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "live updates need JavaScript");
  const alice = await createPerson("lc", base);
  const bob = await createPerson("ld", base);
  const bet = await apiPost(base, alice, "/api/bets", betBody);
  await apiPost(base, bob, `/api/bets/${bet.id}/join`);
  await signIn(context, base, alice.cookie);
  await page.goto(`${base}/propose-settlement/${bet.id}`);
  // Bob's join is her one unread event.
  const bell = page.getByRole("link", { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await page.waitForLoadState("load");
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = "same page";
  });
  const notes = page.getByLabel("Notes (optional)");
  await notes.fill("Bob conceded at the pub, ask him");
  await page.waitForTimeout(1_000);

  // Bob asks to be her friend: her activity changes, so the header does.
  await apiPost(base, bob, "/api/friends", { friendId: alice.id });
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread", {
    timeout: LIVE_MS,
  });
  await expect(notes).toHaveValue("Bob conceded at the pub, ask him");
  await expect(notes).toBeFocused();
  expect(
    await page.evaluate(
      () => (window as unknown as { liveMarker?: string }).liveMarker,
    ),
  ).toBe("same page");
});

test("the approve screen shows the other side's approval by itself", async ({
  page,
  context,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "live updates need JavaScript");
  const alice = await createPerson("lg", base);
  const bob = await createPerson("lh", base);
  const bet = await apiPost(base, alice, "/api/bets", betBody);
  await apiPost(base, bob, `/api/bets/${bet.id}/join`);
  await apiPost(base, alice, `/api/bets/${bet.id}/propose-settlement`, {
    winnerId: alice.id,
  });
  await signIn(context, base, alice.cookie);
  await page.goto(`${base}/settlements/${bet.id}/approve`);
  await expect(
    page.getByText("Waiting for the other side's answer."),
  ).toBeVisible();
  await page.waitForLoadState("load");
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = "same page";
  });
  await page.waitForTimeout(1_000);

  await apiPost(base, bob, `/api/settlements/${bet.id}/approve`);
  await expect(page.getByText(/^Settled \(/)).toBeVisible({
    timeout: LIVE_MS,
  });
  await expect(
    page.getByText("Waiting for the other side's answer."),
  ).toHaveCount(0);
  expect(
    await page.evaluate(
      () => (window as unknown as { liveMarker?: string }).liveMarker,
    ),
  ).toBe("same page");
});

test("without JavaScript a waiting page says so and offers Refresh", async ({
  page,
  context,
}, testInfo) => {
  test.skip(jsEnabled(testInfo), "the page without JavaScript");
  const alice = await createPerson("le", base);
  const bob = await createPerson("lf", base);
  const bet = await apiPost(base, alice, "/api/bets", betBody);
  await signIn(context, base, alice.cookie);
  await page.goto(`${base}/bet/${bet.id}`);
  await expect(page.getByText("Waiting for someone to join.")).toBeVisible();
  const refresh = page.getByRole("link", { name: "Refresh" });
  await expect(refresh).toHaveAttribute("href", `/bet/${bet.id}`);
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);

  await apiPost(base, bob, `/api/bets/${bet.id}/join`);
  await page.waitForTimeout(1_500);
  // Nothing moves until the person reloads.
  await expect(page.getByText("1/2 participants")).toBeVisible();
  await refresh.click();
  await expect(page.getByText("2/2 participants")).toBeVisible();
});
