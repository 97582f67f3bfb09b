// Accounts you can get back into and look after (docs/product-rules.md#accounts):
// password reset by a mailed link (read from a real SMTP server), the
// same answer and the same time for an unknown login, limits that hold
// under a storm; change password; the sessions list and signing out.
import { describe, expect, it } from "vitest";
import { useServers, useSmtp } from "../support/use-server";
import { Client, uniqueName } from "../support/server";
import { linkIn } from "../support/smtp";

const RESET_SUBJECT = "Reset your Fairshake password";
const NOTICE_SUBJECT = "Your Fairshake password was changed";
const RESET_REQUESTED =
  "If an account matches, we sent a reset link to its email.";
const BAD_RESET_LINK = "This reset link is invalid or has expired.";
const TOO_MANY =
  "Too many reset requests. Please wait a few minutes and try again.";
const ADDRESS_HEADER = "X-Test-Client-Address";

const smtp = useSmtp();
// `server`: limits off (the default for test servers). `limited`: limits on,
// a reset link lasting 1 s, the client address from a test header.
const [server, limited] = useServers(
  () => ({ SMTP_URL: smtp.url }),
  () => ({
    SMTP_URL: smtp.url,
    RATE_LIMITS: "on",
    TRUST_PROXY: ADDRESS_HEADER,
    PASSWORD_RESET_TTL_S: "1",
  }),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Account = {
  client: Client;
  username: string;
  email: string;
  password: string;
};

async function account(url = server.url, prefix = "rs"): Promise<Account> {
  const username = uniqueName(prefix);
  const email = `${username}@example.com`;
  const client = new Client(url);
  const res = await client.post("/api/register", {
    username,
    email,
    password: "secret123",
  });
  expect(res.status, res.text).toBe(201);
  return { client, username, email, password: "secret123" };
}

/** A second signed-in browser of the same person. */
async function signedIn(
  who: Account,
  password = who.password,
  userAgent?: string,
  url = server.url,
) {
  const client = new Client(url);
  const res = await client.request("POST", "/api/login", {
    json: { username: who.username, password },
    headers: userAgent ? { "User-Agent": userAgent } : {},
  });
  expect(res.status, res.text).toBe(200);
  return client;
}

const resetMails = (email: string) =>
  smtp.mails.filter((m) => m.to === email && m.subject === RESET_SUBJECT);

/** Asks for a reset and answers the token of the link that arrives. */
async function resetToken(
  who: Account,
  { login = who.username, url = server.url, headers = {} } = {},
) {
  const before = resetMails(who.email).length;
  const res = await new Client(url).request("POST", "/api/password-reset", {
    json: { login },
    headers,
  });
  expect(res.status, res.text).toBe(202);
  await smtp.waitFor(() => resetMails(who.email).length > before);
  const mail = resetMails(who.email)[before]!;
  return new URL(linkIn(mail, "/reset-password"), url).searchParams.get(
    "token",
  )!;
}

const confirm = (client: Client, token: unknown, password = "brandnew1") =>
  client.post("/api/password-reset/confirm", { token, password });

describe("POST /api/password-reset", () => {
  it("answers 202 for a username, an email in any case, and nobody at all", async () => {
    const who = await account();
    for (const login of [who.username, who.email.toUpperCase()]) {
      const before = resetMails(who.email).length;
      const res = await new Client(server.url).post("/api/password-reset", {
        login,
      });
      expect(res.status).toBe(202);
      expect(res.text).toBe("");
      await smtp.waitFor(() => resetMails(who.email).length > before);
    }
    const mail = resetMails(who.email)[0]!;
    expect(mail.text).toContain(`Hi ${who.username},`);
    expect(linkIn(mail, "/reset-password")).toMatch(
      /^\/reset-password\?token=[A-Za-z0-9_-]{43}$/,
    );

    const nobody = `${uniqueName("ghost")}@example.com`;
    const res = await new Client(server.url).post("/api/password-reset", {
      login: nobody,
    });
    expect(res.status).toBe(202);
    expect(res.text).toBe("");
    await sleep(500);
    expect(smtp.mails.filter((m) => m.to === nobody)).toEqual([]);
  });

  it("refuses a missing or oversized login with 400 field errors", async () => {
    const c = new Client(server.url);
    for (const body of [{}, { login: "" }, { login: "  " }, { login: 7 }]) {
      const res = await c.post("/api/password-reset", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.data.fieldErrors.login).toEqual([
        "Enter your username or email",
      ]);
    }
    const long = await c.post("/api/password-reset", {
      login: "a".repeat(255),
    });
    expect(long.status).toBe(400);
  });

  it("takes the same time whether or not an account matches (difference of medians)", async () => {
    // Each matched try names a fresh account, so every one of them makes a
    // token and a mail (no per-account cap hides the work). The mail server
    // hangs meanwhile: a request that waited on mail would take seconds.
    const tries = 25;
    const accounts: Account[] = [];
    for (let i = 0; i < tries; i += 1) accounts.push(await account());
    await sleep(1_000); // their verification mails out of the way
    smtp.mode = "hang";
    const c = new Client(server.url);
    const time = async (login: string) => {
      const start = performance.now();
      const res = await c.post("/api/password-reset", { login });
      const ms = performance.now() - start;
      expect(res.status).toBe(202);
      return ms;
    };
    const matched: number[] = [];
    const unmatched: number[] = [];
    try {
      for (let i = 0; i < 3; i += 1) await time(uniqueName("warm")); // warm-up
      for (let i = 0; i < tries; i += 1) {
        const ghost = uniqueName("rs"); // the same shape as a real name
        // Alternate which goes first, so drift is shared.
        if (i % 2 === 0) {
          matched.push(await time(accounts[i]!.username));
          await sleep(30);
          unmatched.push(await time(ghost));
        } else {
          unmatched.push(await time(ghost));
          await sleep(30);
          matched.push(await time(accounts[i]!.username));
        }
        await sleep(30);
      }
    } finally {
      smtp.mode = "accept";
    }
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s[Math.floor(s.length / 2)]!;
    };
    const difference = Math.abs(median(matched) - median(unmatched));
    // Generous: scheduling noise on a shared machine, never a mail round trip.
    expect(
      difference,
      `medians: matched ${median(matched).toFixed(1)} ms, unmatched ${median(unmatched).toFixed(1)} ms`,
    ).toBeLessThan(25);
  });
});

describe("POST /api/password-reset/confirm", () => {
  it("sets the password, ends every old session, signs this client in and verifies the email", async () => {
    const who = await account();
    const phone = await signedIn(who);
    const token = await resetToken(who);

    const browser = new Client(server.url);
    const short = await confirm(browser, token, "abc");
    expect(short.status).toBe(400);
    expect(short.data.fieldErrors.password).toEqual([
      "Password must be at least 6 characters",
    ]);
    const missing = await browser.post("/api/password-reset/confirm", {
      token,
    });
    expect(missing.status).toBe(400);
    expect(missing.data.fieldErrors.password).toEqual(["Password is required"]);

    const ok = await confirm(browser, token);
    expect(ok.status, ok.text).toBe(204);
    const me = await browser.get("/api/user");
    expect(me.status).toBe(200);
    expect(me.data.username).toBe(who.username);
    expect(me.data.emailVerified).toBe(true);

    // Every session from before is dead.
    expect((await who.client.get("/api/user")).status).toBe(401);
    expect((await phone.get("/api/user")).status).toBe(401);
    // The old password no longer opens the account; the new one does.
    const old = await new Client(server.url).post("/api/login", {
      username: who.username,
      password: who.password,
    });
    expect(old.status).toBe(401);
    await signedIn(who, "brandnew1");
    await smtp.waitFor(
      (m) => m.to === who.email && m.subject === NOTICE_SUBJECT,
    );

    // Used once: a second use is refused and changes nothing.
    const again = await confirm(new Client(server.url), token, "another1");
    expect(again.status).toBe(400);
    expect(again.data).toEqual({ error: BAD_RESET_LINK });
    await signedIn(who, "brandnew1");
  });

  it("refuses an altered, malformed or unknown token", async () => {
    const who = await account();
    const token = await resetToken(who);
    const flip = (t: string, i: number) =>
      t.slice(0, i) + (t[i] === "A" ? "B" : "A") + t.slice(i + 1);
    for (const bad of [
      flip(token, 0),
      flip(token, token.length - 1),
      token.slice(0, -1),
      `${token}A`,
      token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
      "x".repeat(43),
      "",
      null,
      42,
      { token },
      "../../etc/passwd",
    ]) {
      const res = await confirm(new Client(server.url), bad);
      expect(res.status, String(bad)).toBe(400);
      expect(res.data).toEqual({ error: BAD_RESET_LINK });
    }
    // The real one still works after all that.
    expect((await confirm(new Client(server.url), token)).status).toBe(204);
  });

  it("acts only on its own account, only for its purpose, only for the address it was sent to", async () => {
    const alice = await account();
    const bob = await account();
    // The registration's verification link is not a reset link.
    const verifyMail = await smtp.waitFor(
      (m) => m.to === alice.email && m.subject === "Confirm your email address",
    );
    const verifyToken = new URL(
      linkIn(verifyMail, "/verify-email"),
      server.url,
    ).searchParams.get("token");
    expect((await confirm(new Client(server.url), verifyToken)).status).toBe(
      400,
    );

    // Bob, signed in, uses Alice's link: it resets Alice, never Bob.
    const bobPhone = await signedIn(bob);
    const aliceToken = await resetToken(alice);
    const res = await confirm(bob.client, aliceToken);
    expect(res.status).toBe(204);
    expect((await bob.client.get("/api/user")).data.username).toBe(
      alice.username,
    );
    expect((await bobPhone.get("/api/user")).data.username).toBe(bob.username);
    await signedIn(bob, bob.password);

    // A changed email voids a link sent to the old one.
    const carol = await account();
    const carolToken = await resetToken(carol);
    const moved = await carol.client.patch("/api/user/profile", {
      email: `moved-${carol.email}`,
      currentPassword: carol.password,
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await confirm(new Client(server.url), carolToken)).status).toBe(
      400,
    );
    await signedIn(carol, carol.password);

    // Using one link voids the others that were live.
    const dave = await account();
    const first = await resetToken(dave);
    const second = await resetToken(dave, { login: dave.email });
    expect((await confirm(new Client(server.url), second)).status).toBe(204);
    expect(
      (await confirm(new Client(server.url), first, "third123")).status,
    ).toBe(400);
  });

  it("refuses an expired link (a 1-second lifetime on this server)", async () => {
    const who = await account(limited.url);
    const token = await resetToken(who, {
      url: limited.url,
      headers: { [ADDRESS_HEADER]: "10.9.0.1" },
    });
    await sleep(1_300);
    const res = await confirm(new Client(limited.url), token);
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: BAD_RESET_LINK });
    const page = await new Client(limited.url).get(
      `/reset-password?token=${token}`,
      { Accept: "text/html" },
    );
    expect(page.status).toBe(200);
    expect(page.text).toContain(BAD_RESET_LINK);
    expect(page.text).not.toContain('name="password"');
  });
});

describe("reset limits (limits on)", () => {
  const from = (address: string) => ({ [ADDRESS_HEADER]: address });
  const ask = (login: string, address: string) =>
    new Client(limited.url).request("POST", "/api/password-reset", {
      json: { login },
      headers: from(address),
    });

  it("a storm gets 429 and at most 3 mails reach the account", async () => {
    const who = await account(limited.url);
    // From one address, all at once, by name and by email.
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        ask(i % 2 ? who.email : who.username, "10.1.0.1"),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
    expect(statuses.every((s) => s === 202 || s === 429)).toBe(true);
    const refused = burst.find((r) => r.status === 429)!;
    expect(refused.data).toEqual({ error: TOO_MANY });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);

    // From many addresses (a botnet), by both logins.
    const spread = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ask(i % 2 ? who.email : who.username, `10.2.0.${i + 1}`),
      ),
    );
    expect(spread.filter((r) => r.status === 429).length).toBeGreaterThan(0);

    await smtp.waitFor(() => resetMails(who.email).length > 0);
    await sleep(2_000); // anything still on its way
    expect(resetMails(who.email).length).toBeGreaterThan(0);
    expect(resetMails(who.email).length).toBeLessThanOrEqual(3);
  });

  it("answers an unknown login exactly as a known one, limits included", async () => {
    const who = await account(limited.url);
    const ghost = uniqueName("rs");
    const run = async (login: string, address: string) => {
      const out: number[] = [];
      for (let i = 0; i < 7; i += 1)
        out.push((await ask(login, address)).status);
      return out;
    };
    const known = await run(who.username, "10.3.0.1");
    const unknown = await run(ghost, "10.3.0.2");
    expect(known).toEqual([202, 202, 202, 202, 202, 429, 429]);
    expect(unknown).toEqual(known);
  });

  it("one address is held back whatever logins it names", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1)
      statuses.push((await ask(uniqueName("gx"), "10.4.0.1")).status);
    expect(statuses.slice(0, 10).every((s) => s === 202)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Another address is not.
    expect((await ask(uniqueName("gx"), "10.4.0.2")).status).toBe(202);
  });
});

describe("POST /api/user/password", () => {
  it("refuses a wrong current password and a weak new one with field errors", async () => {
    const who = await account();
    const wrong = await who.client.post("/api/user/password", {
      currentPassword: "not-it-123",
      newPassword: "brandnew1",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data.fieldErrors).toEqual({
      currentPassword: ["Current password is incorrect"],
    });
    const weak = await who.client.post("/api/user/password", {
      currentPassword: who.password,
      newPassword: "abc",
    });
    expect(weak.status).toBe(400);
    expect(weak.data.fieldErrors.newPassword).toEqual([
      "Password must be at least 6 characters",
    ]);
    const empty = await who.client.post("/api/user/password", {});
    expect(empty.status).toBe(400);
    expect(empty.data.fieldErrors.currentPassword).toEqual([
      "Current password is required",
    ]);
    // Nothing changed.
    await signedIn(who, who.password);
  });

  it("changes it, keeps this session and ends every other one", async () => {
    const who = await account();
    const laptop = await signedIn(who);
    const phone = await signedIn(who);
    const res = await laptop.post("/api/user/password", {
      currentPassword: who.password,
      newPassword: "brandnew1",
    });
    expect(res.status, res.text).toBe(204);
    expect((await laptop.get("/api/user")).status).toBe(200);
    expect((await phone.get("/api/user")).status).toBe(401);
    expect((await who.client.get("/api/user")).status).toBe(401);
    const old = await new Client(server.url).post("/api/login", {
      username: who.username,
      password: who.password,
    });
    expect(old.status).toBe(401);
    await signedIn(who, "brandnew1");
    await smtp.waitFor(
      (m) => m.to === who.email && m.subject === NOTICE_SUBJECT,
    );
  });
});

describe("sessions", () => {
  const ANDROID =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

  it("lists where I am signed in, marking this one", async () => {
    const who = await account();
    const phone = await signedIn(who, who.password, ANDROID);
    const res = await who.client.get("/api/user/sessions");
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(2);
    for (const s of res.data)
      expect(Object.keys(s).sort()).toEqual(
        ["createdAt", "current", "id", "lastSeenAt", "userAgent"].sort(),
      );
    expect(
      res.data.filter((s: { current: boolean }) => s.current),
    ).toHaveLength(1);
    const fromPhone = (await phone.get("/api/user/sessions")).data as {
      id: string;
      current: boolean;
      userAgent: string;
      createdAt: string;
    }[];
    const phoneRow = fromPhone.find((s) => s.current)!;
    expect(phoneRow.userAgent).toBe(ANDROID);
    expect(new Date(phoneRow.createdAt).getTime()).not.toBeNaN();
    expect(phoneRow.id).toMatch(/^[0-9a-f]{32}$/);
    // Never the cookie's token.
    expect(JSON.stringify(fromPhone)).not.toContain(
      phone.cookieHeader.split("=")[1]!.split(".")[0]!,
    );
  });

  it("signs one device out; another person's session id is a 404", async () => {
    const who = await account();
    const phone = await signedIn(who);
    const other = await account();
    const otherSession = (await other.client.get("/api/user/sessions")).data[0]
      .id as string;

    const theirs = await who.client.delete(
      `/api/user/sessions/${otherSession}`,
    );
    expect(theirs.status).toBe(404);
    expect(theirs.data).toEqual({ error: "Session not found" });
    expect((await other.client.get("/api/user")).status).toBe(200);
    for (const bad of ["0".repeat(32), "nope", "1"]) {
      const res = await who.client.delete(`/api/user/sessions/${bad}`);
      expect(res.status, bad).toBe(404);
    }

    const phoneId = (
      (await phone.get("/api/user/sessions")).data as {
        id: string;
        current: boolean;
      }[]
    ).find((s) => s.current)!.id;
    const res = await who.client.delete(`/api/user/sessions/${phoneId}`);
    expect(res.status).toBe(204);
    expect((await phone.get("/api/user")).status).toBe(401);
    expect((await who.client.get("/api/user")).status).toBe(200);
    expect(
      (await who.client.delete(`/api/user/sessions/${phoneId}`)).status,
    ).toBe(404);
  });

  it("signs out everywhere else", async () => {
    const who = await account();
    const a = await signedIn(who);
    const b = await signedIn(who);
    const other = await account();
    const res = await a.post("/api/user/sessions/revoke-others");
    expect(res.status).toBe(204);
    expect((await a.get("/api/user")).status).toBe(200);
    expect((await b.get("/api/user")).status).toBe(401);
    expect((await who.client.get("/api/user")).status).toBe(401);
    expect((await other.client.get("/api/user")).status).toBe(200);
    const left = await a.get("/api/user/sessions");
    expect(left.data).toHaveLength(1);
    expect(left.data[0].current).toBe(true);
  });
});

describe("the pages without JavaScript", () => {
  it("/forgot-password answers the same sentence and /reset-password sets the password", async () => {
    const who = await account();
    const visitor = new Client(server.url);
    const page = await visitor.get("/forgot-password", { Accept: "text/html" });
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<script\b[^>]*src=/);
    const sent = await visitor.request("POST", "/forgot-password", {
      body: new URLSearchParams({ login: who.username }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/forgot-password?sent=1");
    const shown = await visitor.get("/forgot-password?sent=1", {
      Accept: "text/html",
    });
    expect(shown.text).toContain(RESET_REQUESTED);

    await smtp.waitFor(() => resetMails(who.email).length > 0);
    const link = linkIn(resetMails(who.email)[0]!, "/reset-password");
    const form = await visitor.get(link, { Accept: "text/html" });
    expect(form.text).toContain('name="password"');
    const token = new URL(link, server.url).searchParams.get("token")!;
    const post = (fields: Record<string, string>) =>
      // The form posts to the page's own URL, token included.
      visitor.request("POST", link, {
        body: new URLSearchParams({ token, ...fields }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    const mismatch = await post({
      password: "brandnew1",
      confirmPassword: "brandnew2",
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain("Passwords do not match");
    const done = await post({
      password: "brandnew1",
      confirmPassword: "brandnew1",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    expect((await visitor.get("/api/user")).data.username).toBe(who.username);
    expect((await who.client.get("/api/user")).status).toBe(401);
  });
});
