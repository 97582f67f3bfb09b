// The "acting offline" row of `npm run bench` (docs/product-rules.md#acting-offline):
// a person opens ten bets, each in its own tab, the connection drops, they
// tap Join on every one (each kept on the phone), and the connection comes
// back. Printed: how many were sent (goal 10), duplicates reaching the
// server (goal 0) and the time from `online` to the last join made.
// Playwright drives Debian's Chromium; the joins are read back over the API.
import { chromium } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { registerCookie as register } from "../lib/harness.mjs";

const ACTIONS = 10;
const stamp = Date.now().toString(36);

async function api(base, cookie, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/** Runs the journey once; returns its figures. */
export async function offlineActions(base) {
  const creator = await register(base, `offc${stamp}`);
  const joiner = await register(base, `offj${stamp}`);
  const bets = [];
  for (let i = 0; i < ACTIONS; i++)
    bets.push(
      await api(base, creator, "POST", "/api/bets", {
        title: `Offline bench ${stamp} ${i}`,
        description: "Taken in a tunnel.",
        amount: 5,
        deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        visibility: "public",
      }),
    );
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
  try {
    const context = await browser.newContext({ serviceWorkers: "block" });
    // Ten tabs hydrating at once on a slow machine take their time.
    context.setDefaultTimeout(60_000);
    const eq = joiner.indexOf("=");
    await context.addCookies([
      {
        name: joiner.slice(0, eq),
        value: joiner.slice(eq + 1),
        // As the browser tests do (tests/e2e/fixtures.ts): Chromium takes
        // a `__Host-` cookie only host-only, secure, on path "/".
        domain: new URL(base).hostname,
        path: "/",
        httpOnly: true,
        secure: true,
        sameSite: "Lax",
      },
    ]);
    // Every join POST that reaches the server, by its key; while the line is
    // down one fails as offline, as the browser would, and is not counted.
    const keys = [];
    let up = true;
    await context.route("**/bet/*.data*", (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      if (!up) return route.abort("internetdisconnected");
      keys.push(
        new URLSearchParams(request.postData() ?? "").get("idempotencyKey"),
      );
      return route.continue();
    });
    // Each tab's live stream holds a connection open, and Chromium opens at
    // most six per host over HTTP/1.1 (Fly's proxy speaks HTTP/2 to phones):
    // ten tabs here would starve the seventh. The streams play no part in
    // this journey.
    await context.route("**/api/events*", (route) => route.abort());
    const pages = [];
    for (const bet of bets) {
      const page = await context.newPage();
      await page.goto(`${base}/bet/${bet.id}`, {
        waitUntil: "domcontentloaded",
      });
      const join = page.getByRole("button", { name: /^Join Bet for/ });
      await join.waitFor();
      // Hydrated: React's props are on the button.
      await page.waitForFunction(
        (el) => Object.keys(el).some((k) => k.startsWith("__reactProps$")),
        await join.elementHandle(),
      );
      pages.push({ page, join });
    }
    up = false;
    await context.setOffline(true);
    for (const { page, join } of pages) {
      await join.click();
      await page
        .getByText("Saved on this phone", { exact: false })
        .waitFor({ timeout: 10_000 });
    }
    const online = Date.now();
    up = true;
    await context.setOffline(false);
    let joined = 0;
    let lastAt = null;
    const until = online + 60_000;
    while (Date.now() < until) {
      const views = await Promise.all(
        bets.map((bet) => api(base, creator, "GET", `/api/bets/${bet.id}`)),
      );
      joined = views.filter((v) => v.participantIds?.length === 2).length;
      if (joined === ACTIONS) {
        lastAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    // A moment more, for any late second copy to show itself.
    await new Promise((r) => setTimeout(r, 1_000));
    return {
      actions: ACTIONS,
      sent: joined,
      duplicates: keys.length - new Set(keys).size,
      posts: keys.length,
      msToLast: lastAt === null ? null : lastAt - online,
    };
  } finally {
    await browser.close();
  }
}
