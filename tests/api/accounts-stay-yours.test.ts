// Accounts that stay yours: what a black-box probe of the demo
// found, each reproduced over HTTP against the production build. The demo
// outbox shows a browser only its own mail; a new email needs the password,
// is capped, and never pulls reset mail away from the proven address; a
// reset link dies with the password; races and malformed tokens get 4xx,
// never 500; a late rejection meets a closed window; push goes only to
// push services' own port; an amount is a number.
import { describe, expect, it } from "vitest";
import { useServers, useSmtp } from "../support/use-server";
import { Client, signUp, uniqueName } from "../support/server";
import { linkIn } from "../support/smtp";
import { activeBetOverHttp } from "./settle-helpers";

const smtp = useSmtp();
// `demo`: demo mode without SMTP (mail kept for /demo/outbox), answer
// windows of 2 s and a sweep that, after start-up, does not come round
// during the file. `mailed`: a real SMTP server and the abuse limits on.
const [demo, mailed] = useServers(
  () => ({ RESPONSE_WINDOW_S: "2", SWEEP_INTERVAL_S: "3600" }),
  () => ({ SMTP_URL: smtp.url, RATE_LIMITS: "on" }),
);

const PASSWORD = "secret123";
const RESET_SUBJECT = "Reset your Fairshake password";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function register(url: string, prefix = "ay") {
  const username = uniqueName(prefix);
  const email = `${username}@example.com`;
  const client = new Client(url);
  const res = await client.post("/api/register", {
    username,
    email,
    password: PASSWORD,
  });
  expect(res.status, res.text).toBe(201);
  return { client, username, email, id: res.data.id as number };
}

const outbox = async (client: Client) => {
  const page = await client.get("/demo/outbox", { Accept: "text/html" });
  expect(page.status).toBe(200);
  return page;
};

/** Polls a browser's outbox until `ok` holds (reset mail is written after the answer). */
async function outboxUntil(client: Client, ok: (html: string) => boolean) {
  const end = Date.now() + 10_000;
  for (;;) {
    const { text } = await outbox(client);
    if (ok(text) || Date.now() > end) return text;
    await sleep(150);
  }
}

describe("the demo outbox shows a browser only its own mail", () => {
  it("an anonymous reset for someone else's account lists no link; the account's own browser sees it", async () => {
    const carol = await register(demo.url, "carol");
    const stranger = new Client(demo.url);
    const asked = await stranger.post("/api/password-reset", {
      login: carol.email,
    });
    expect(asked.status).toBe(202);
    // Carol's own browser, signed out since, still sees her mail.
    expect((await carol.client.post("/api/logout")).status).toBeLessThan(300);
    const own = await outboxUntil(carol.client, (html) =>
      html.includes(RESET_SUBJECT),
    );
    expect(own).toContain(RESET_SUBJECT);
    expect(own).toMatch(/reset-password\?token=/);
    // The stranger, anonymous or signed in as someone else, sees none of it.
    const anonymous = await outbox(stranger);
    expect(anonymous.text).not.toContain(carol.email);
    expect(anonymous.text).not.toMatch(
      /reset-password\?token=|verify-email\?token=|unsubscribe\?token=/,
    );
    expect(anonymous.headers.get("cache-control") ?? "").not.toMatch(/public/);
    const other = await register(demo.url, "dave");
    const theirs = await outbox(other.client);
    expect(theirs.text).toContain(other.email);
    expect(theirs.text).not.toContain(carol.email);
    expect(theirs.text).not.toMatch(/reset-password\?token=/);
    // A forged list of accounts in the cookie is not believed.
    const forged = new Client(demo.url);
    const page = await forged.get("/demo/outbox", {
      Accept: "text/html",
      Cookie: `fairshake_demo_accounts=${Buffer.from(JSON.stringify([carol.id])).toString("base64")}.AAAA`,
    });
    expect(page.text).not.toContain(carol.email);
  });
});

describe("changing the email needs the password", () => {
  it("400 fieldErrors.currentPassword when missing or wrong, nothing changes; with it, 200", async () => {
    const me = await register(demo.url);
    for (const currentPassword of [undefined, "", "wrong-password", 42]) {
      const res = await me.client.patch("/api/user/profile", {
        email: `new-${me.email}`,
        currentPassword,
      });
      expect(res.status, String(currentPassword)).toBe(400);
      expect(res.data.fieldErrors).toEqual({
        currentPassword: ["Current password is incorrect"],
      });
    }
    expect((await me.client.get("/api/user")).data.email).toBe(me.email);
    // The username and picture need no password.
    const renamed = await me.client.patch("/api/user/profile", {
      username: `${me.username}r`,
    });
    expect(renamed.status).toBe(200);
    const moved = await me.client.patch("/api/user/profile", {
      email: `new-${me.email}`,
      currentPassword: PASSWORD,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.data.email).toBe(`new-${me.email}`);
  });

  it("at most 3 changes an hour: the 4th is 429 with Retry-After and mails no one", async () => {
    const me = await register(mailed.url);
    const victim = `victim-${me.username}@example.org`;
    const addresses = [victim, me.email, victim];
    for (const email of addresses) {
      const res = await me.client.patch("/api/user/profile", {
        email,
        currentPassword: PASSWORD,
      });
      expect(res.status, res.text).toBe(200);
    }
    await sleep(500);
    const before = smtp.mails.filter((m) => m.to === victim).length;
    const fourth = await me.client.patch("/api/user/profile", {
      email: me.email,
      currentPassword: PASSWORD,
    });
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
    await sleep(500);
    expect(smtp.mails.filter((m) => m.to === victim)).toHaveLength(before);
    expect((await me.client.get("/api/user")).data.email).toBe(victim);
  });

  it("the cap is a product rule: RATE_LIMITS=off does not lift it", async () => {
    const me = await register(demo.url);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await me.client.patch("/api/user/profile", {
            email: `n${i}-${me.email}`,
            currentPassword: PASSWORD,
          })
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("while a new address is unverified, reset mail goes to the last verified one", async () => {
    const me = await register(mailed.url, "rv");
    // Verify the first address with its mailed link.
    const verify = await smtp.waitFor(
      (m) => m.to === me.email && m.subject === "Confirm your email address",
    );
    const token = new URL(
      linkIn(verify, "/verify-email"),
      mailed.url,
    ).searchParams.get("token");
    expect((await me.client.post("/api/verify-email", { token })).status).toBe(
      200,
    );
    const fresh = `fresh-${me.email}`;
    expect(
      (
        await me.client.patch("/api/user/profile", {
          email: fresh,
          currentPassword: PASSWORD,
        })
      ).status,
    ).toBe(200);
    const asked = await new Client(mailed.url).post("/api/password-reset", {
      login: fresh,
    });
    expect(asked.status).toBe(202);
    const reset = await smtp.waitFor(
      (m) => m.subject === RESET_SUBJECT && m.text.includes(me.username),
    );
    expect(reset.to).toBe(me.email);
    expect(
      smtp.mails.filter((m) => m.to === fresh && m.subject === RESET_SUBJECT),
    ).toHaveLength(0);
    // The link works, and it does not verify the address it never reached.
    const resetToken = new URL(
      linkIn(reset, "/reset-password"),
      mailed.url,
    ).searchParams.get("token");
    const browser = new Client(mailed.url);
    const confirmed = await browser.post("/api/password-reset/confirm", {
      token: resetToken,
      password: "another-secret-1",
    });
    expect(confirmed.status, confirmed.text).toBe(204);
    const user = (await browser.get("/api/user")).data;
    expect(user).toMatchObject({ email: fresh, emailVerified: false });
  });
});

describe("a reset link dies with the password", () => {
  async function resetLinkFor(who: { email: string; client: Client }) {
    const before = new Set(
      (await outbox(who.client)).text.match(/reset-password\?token=[\w-]+/g),
    );
    await new Client(demo.url).post("/api/password-reset", {
      login: who.email,
    });
    const text = await outboxUntil(who.client, (html) =>
      (html.match(/reset-password\?token=[\w-]+/g) ?? []).some(
        (l) => !before.has(l),
      ),
    );
    const link = text
      .match(/reset-password\?token=[\w-]+/g)!
      .find((l) => !before.has(l))!;
    return link.split("token=")[1]!;
  }

  it("a password changed in settings ends every link still out", async () => {
    const me = await register(demo.url, "rp");
    const token = await resetLinkFor(me);
    const changed = await me.client.post("/api/user/password", {
      currentPassword: PASSWORD,
      newPassword: "changed-secret-1",
    });
    expect(changed.status, changed.text).toBe(204);
    const used = await new Client(demo.url).post(
      "/api/password-reset/confirm",
      { token, password: "attacker-pass-1" },
    );
    expect(used.status).toBe(400);
    expect(used.data.error).toBe("This reset link is invalid or has expired.");
  });

  it("changing the email away and back does not revive a link", async () => {
    const me = await register(demo.url, "rb");
    const token = await resetLinkFor(me);
    for (const email of [`away-${me.email}`, me.email])
      expect(
        (
          await me.client.patch("/api/user/profile", {
            email,
            currentPassword: PASSWORD,
          })
        ).status,
      ).toBe(200);
    const used = await new Client(demo.url).post(
      "/api/password-reset/confirm",
      { token, password: "attacker-pass-1" },
    );
    expect(used.status).toBe(400);
  });
});

describe("no 500 from a race or a malformed token", () => {
  it("six simultaneous sign-ups of one username: one 201, five 409 'Username already taken'", async () => {
    const username = uniqueName("race");
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        new Client(demo.url).post("/api/register", {
          username,
          email: `${username}.${i}@example.com`,
          password: PASSWORD,
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409))
      expect(r.data.error).toBe("Username already taken");
  });

  it("a double-submitted registration form: one account, the other answer a 409 page, never 500", async () => {
    const username = uniqueName("dbl");
    const body = new URLSearchParams({
      intent: "register",
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }).toString();
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        new Client(demo.url).request("POST", "/auth?tab=register", {
          body,
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: "text/html",
          },
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.every((s) => s < 500)).toBe(true);
    for (const r of results.filter((r) => r.status !== 302))
      expect(r.text).toContain("Username already taken");
  });

  it("malformed unsubscribe, verify and reset tokens of any length or encoding: 400", async () => {
    const { client } = await signUp(demo.url);
    const weird = [
      `1.bet_settled.${"é".repeat(43)}`,
      `1.bet_settled.${"é".repeat(22)}`,
      "1.bet_settled.",
      "é".repeat(300),
      "%00%ff",
      "a".repeat(5000),
    ];
    for (const token of weird) {
      const q = encodeURIComponent(token);
      const get = await fetch(`${demo.url}/api/unsubscribe?token=${q}`);
      expect(get.status, `GET ${token.slice(0, 20)}`).toBe(400);
      const post = await fetch(`${demo.url}/api/unsubscribe?token=${q}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(post.status, `POST ${token.slice(0, 20)}`).toBe(400);
      const verify = await client.post("/api/verify-email", { token });
      expect(verify.status, `verify ${token.slice(0, 20)}`).toBe(400);
      const reset = await new Client(demo.url).post(
        "/api/password-reset/confirm",
        { token, password: "whatever-123" },
      );
      expect(reset.status, `reset ${token.slice(0, 20)}`).toBe(400);
    }
  });
});

describe("windows close on time", () => {
  it("a rejection after respondBy is 409 'The answer window has closed.' before the sweep runs; the bet settles as the timeout would", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(demo.url, 20);
    const proposed = await joiner.client.post(
      `/api/bets/${betId}/propose-settlement`,
      { winnerId: joiner.user.id },
    );
    expect(proposed.status).toBe(201);
    await sleep(2_500); // the 2 s window has closed; the sweep has not run
    const late = await creator.client.post(
      `/api/settlements/${betId}/reject`,
      {},
    );
    expect(late.status).toBe(409);
    expect(late.data.error).toBe("The answer window has closed.");
    const settlement = await creator.client.get(`/api/settlements/${betId}`);
    expect(settlement.data).toMatchObject({
      resolution: "timeout",
      winnerId: joiner.user.id,
    });
    expect((await creator.client.get(`/api/bets/${betId}`)).data.status).toBe(
      "settled",
    );
  });

  it("an approval after respondBy settles it as the timeout does", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(demo.url, 20);
    await joiner.client.post(`/api/bets/${betId}/propose-settlement`, {
      winnerId: joiner.user.id,
    });
    await sleep(2_500);
    const late = await creator.client.post(
      `/api/settlements/${betId}/approve`,
      {},
    );
    expect(late.status, late.text).toBe(200);
    const settlement = await creator.client.get(`/api/settlements/${betId}`);
    expect(settlement.data.resolution).toBe("timeout");
  });
});

describe("every mail a person can make us send is limited", () => {
  it("proposing and withdrawing on one bet: the 6th proposal within the hour is 429 and tells no one", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(mailed.url, 20);
    const propose = () =>
      joiner.client.post(`/api/bets/${betId}/propose-settlement`, {
        winnerId: joiner.user.id,
      });
    for (let i = 0; i < 5; i++) {
      const proposed = await propose();
      expect(proposed.status, proposed.text).toBe(201);
      const withdrawn = await joiner.client.post(
        `/api/settlements/${betId}/reject`,
        {},
      );
      expect(withdrawn.status, withdrawn.text).toBe(204);
    }
    const sixth = await propose();
    expect(sixth.status).toBe(429);
    expect(sixth.data.error).toBe(
      "You have proposed a result for this bet several times in the last hour. Please wait before proposing again.",
    );
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    // The other side may still propose.
    const theirs = await creator.client.post(
      `/api/bets/${betId}/propose-settlement`,
      { winnerId: creator.user.id },
    );
    expect(theirs.status).toBe(201);
  });
});

describe("push goes only to push services", () => {
  it("an https endpoint on another port than 443 is 400", async () => {
    const { client } = await signUp(demo.url);
    const keys = {
      p256dh:
        "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
      auth: "tBHItJI5svbpez7KI4CCXg",
    };
    for (const endpoint of [
      "https://fcm.googleapis.com:22/x",
      "https://fcm.googleapis.com:8443/x",
    ]) {
      const res = await client.post("/api/push-subscriptions", {
        endpoint,
        keys,
      });
      expect(res.status, endpoint).toBe(400);
    }
    const ok = await client.post("/api/push-subscriptions", {
      endpoint: "https://fcm.googleapis.com:443/fcm/send/abc",
      keys,
    });
    expect(ok.status, ok.text).toBe(201);
  });
});

describe("an amount is a number", () => {
  it("a string amount with spaces is 400 on create and edit", async () => {
    const { client } = await signUp(demo.url);
    const bet = {
      title: "Spaced amount",
      description: "An amount written with spaces around it.",
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
    };
    for (const amount of ["  12", "12 ", " 12 ", "\t12"]) {
      const res = await client.post("/api/bets", { ...bet, amount });
      expect(res.status, JSON.stringify(amount)).toBe(400);
      expect(res.data.fieldErrors.amount).toEqual([
        "Amount must be a positive number.",
      ]);
    }
    const created = await client.post("/api/bets", { ...bet, amount: 12 });
    expect(created.status).toBe(201);
    const edited = await client.put(`/api/bets/${created.data.id}`, {
      ...bet,
      amount: "  15",
    });
    expect(edited.status).toBe(400);
    expect((await client.get(`/api/bets/${created.data.id}`)).data.amount).toBe(
      12,
    );
  });
});
