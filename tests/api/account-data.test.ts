// Your data (docs/product-rules.md#your-data): GET /api/user/export and DELETE /api/user, over real
// HTTP against the production build, with a real SMTP server so the tokens a
// person was mailed can be looked for in the export.
import { describe, expect, it } from "vitest";
import { queryServerDatabase } from "../support/server-database";
import { useServer, useSmtp, usePushService } from "../support/use-server";
import { Client, signUp, uniqueName } from "../support/server";
import { linkIn } from "../support/smtp";
import { payOverHttp } from "./settle-helpers";
import { betIn, joinBetAs, newBet, type Person } from "../support/world";

const smtp = useSmtp();
const push = usePushService();
const server = useServer(() => ({
  SMTP_URL: smtp.url,
  OUTBOX_POLL_MS: "200",
  OUTBOX_RETRY_BASE_MS: "300",
  PUSH_ENDPOINT_HOSTS: "127.0.0.1",
}));

const PASSWORD = "secret123";

async function verifiedPerson(prefix: string): Promise<Person> {
  const name = uniqueName(prefix);
  const email = `${name}@example.com`;
  const client = new Client(server.url);
  const reg = await client.post("/api/register", {
    username: name,
    email,
    password: PASSWORD,
  });
  expect(reg.status, reg.text).toBe(201);
  const mail = await smtp.waitFor(
    (m) => m.to === email && m.subject === "Confirm your email address",
  );
  const token = new URL(
    linkIn(mail, "/verify-email"),
    server.url,
  ).searchParams.get("token");
  expect((await client.post("/api/verify-email", { token })).status).toBe(200);
  return { client, user: { ...reg.data, email } };
}

async function plainPerson(prefix: string): Promise<Person> {
  const { client, user } = await signUp(server.url, uniqueName(prefix));
  return {
    client,
    user: {
      ...(user as { id: number; username: string }),
      email: `${user.username}@example.com`,
    },
  };
}

async function befriend(a: Person, b: Person) {
  expect(
    (await a.client.post("/api/friends", { friendId: b.user.id })).status,
  ).toBe(201);
  const ok = await b.client.post("/api/friends/accept", {
    friendId: a.user.id,
  });
  expect(ok.status, ok.text).toBe(200);
}

const closeAccount = (p: Person, password: unknown) =>
  p.client.request("DELETE", "/api/user", { json: { password } });

/** Rows read straight from the server's database, on either engine. */
const rowsOf = <T = Record<string, unknown>>(
  text: string,
  ...params: unknown[]
) => queryServerDatabase<T>(server.databaseEnv, text, params);

/** Every key of a JSON value, however deep. */
function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keysOf(v, out);
    }
  return out;
}

describe("GET /api/user/export", () => {
  it("401 for a visitor", async () => {
    const res = await new Client(server.url).get("/api/user/export");
    expect(res.status).toBe(401);
  });

  it("is everything of yours, as an attachment, and nobody else's email, no hash, no token", async () => {
    const alice = await verifiedPerson("exal");
    const bob = await verifiedPerson("exbo");
    const carol = await plainPerson("exca");
    const dave = await plainPerson("exda");
    await befriend(alice, carol);
    await befriend(alice, bob);
    // dave's request waits for an answer
    expect(
      (await dave.client.post("/api/friends", { friendId: alice.user.id }))
        .status,
    ).toBe(201);
    const sub = push.subscribe();
    expect(
      (await alice.client.post("/api/push-subscriptions", sub)).status,
    ).toBe(201);
    // bob creates, alice joins, bob concedes: alice won, bob pays
    const bet = await betIn("settled", "public", bob, alice);
    await payOverHttp(bob.client, bet.id);
    // alice's own pending bet, and a bet she is no part of
    const own = await newBet(alice, { title: "Alice's own open bet" });
    const stranger = await newBet(bob, {
      title: "Stranger bet zq",
      description: "Nothing of alice here at all.",
    });
    await joinBetAs(dave, stranger);
    // a notification mail to alice carries an unsubscribe token
    const mail = await smtp.waitFor(
      (m) =>
        m.to === alice.user.email && m.raw("List-Unsubscribe") !== undefined,
    );
    const unsubscribeToken = new URL(
      /<([^>]+)>/.exec(mail.raw("List-Unsubscribe") ?? "")![1]!,
    ).searchParams.get("token")!;
    expect(unsubscribeToken.length).toBeGreaterThan(10);

    const res = await alice.client.get("/api/user/export");
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="fairshake-data-.+\.json"$/,
    );
    const data = res.data;
    // Everything of yours
    expect(data.profile).toMatchObject({
      id: alice.user.id,
      username: alice.user.username,
      email: alice.user.email,
      emailVerified: true,
    });
    const bets = data.bets as { id: number; title: string; role: string }[];
    expect(bets.map((b) => b.id).sort()).toEqual([bet.id, own.id].sort());
    expect(bets.find((b) => b.id === bet.id)?.role).toBe("participant");
    expect(bets.find((b) => b.id === own.id)?.role).toBe("creator");
    expect(data.settlements).toEqual([
      expect.objectContaining({
        betId: bet.id,
        winner: { id: alice.user.id, username: alice.user.username },
        loser: { id: bob.user.id, username: bob.user.username },
        paymentStatus: "completed",
      }),
    ]);
    expect(data.payments).toEqual([
      expect.objectContaining({
        betId: bet.id,
        direction: "received",
        status: "completed",
      }),
    ]);
    // the winner's lines: the payout and the platform's fee on it
    expect(
      (data.ledgerEntries as { betId: number; kind: string }[]).map(
        (e) => `${e.betId}:${e.kind}`,
      ),
    ).toEqual([`${bet.id}:payout`, `${bet.id}:fee`]);
    expect(data.friends).toEqual([
      expect.objectContaining({ username: carol.user.username }),
      expect.objectContaining({ username: bob.user.username }),
    ]);
    expect(data.friendRequests).toEqual([
      expect.objectContaining({
        username: dave.user.username,
        direction: "received",
      }),
    ]);
    expect(
      (data.activity as { type: string }[]).some(
        (a) => a.type === "payment_received",
      ),
    ).toBe(true);
    expect(data.notificationPreferences.email.bet_joined).toBe(true);
    expect(data.pushSubscriptions).toEqual([
      expect.objectContaining({ endpointHost: new URL(sub.endpoint).host }),
    ]);
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.sessions[0]).toHaveProperty("device");
    expect(data.sessions[0]).toHaveProperty("createdAt");

    // Nothing of anyone else, no hash, no token
    const text = res.text;
    for (const other of [bob, carol, dave])
      expect(text).not.toContain(other.user.email);
    expect(text).not.toContain("Stranger bet zq");
    expect(text).not.toContain(unsubscribeToken);
    expect(text).not.toContain(sub.endpoint);
    expect(text).not.toContain(sub.keys.p256dh);
    expect(text).not.toContain(sub.keys.auth);
    const secrets = (
      await Promise.all(
        [
          "SELECT password_hash AS v FROM users WHERE id = ?",
          "SELECT id_hash AS v FROM sessions WHERE user_id = ?",
          "SELECT public_id AS v FROM sessions WHERE user_id = ?",
          "SELECT token_hash AS v FROM email_tokens WHERE user_id = ?",
        ].map((text) => rowsOf<{ v: string }>(text, alice.user.id)),
      )
    ).flat();
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    for (const { v } of secrets) expect(text).not.toContain(v);
    expect(text).not.toMatch(/argon2/);
    expect(
      keysOf(data).filter((k) => /hash|token|secret|intent/i.test(k)),
    ).toEqual([]);
  });
});

describe("DELETE /api/user", () => {
  it("401 for a visitor", async () => {
    const res = await new Client(server.url).request("DELETE", "/api/user", {
      json: { password: PASSWORD },
    });
    expect(res.status).toBe(401);
  });

  it("400 with a field error for a wrong or missing password; nothing changes", async () => {
    const me = await plainPerson("dlwp");
    const wrong = await closeAccount(me, "not-my-password");
    expect(wrong.status).toBe(400);
    expect(wrong.data.fieldErrors.password).toEqual(["Password is incorrect"]);
    const missing = await closeAccount(me, undefined);
    expect(missing.status).toBe(400);
    expect(missing.data.fieldErrors.password).toEqual(["Password is required"]);
    const odd = await closeAccount(me, { not: "a string" });
    expect(odd.status).toBe(400);
    const still = await me.client.get("/api/user");
    expect(still.status).toBe(200);
    expect(still.data.username).toBe(me.user.username);
  });

  it("409 while in a pending or active bet, or refereeing an open one", async () => {
    const message = "Finish, cancel or pay your open bets first.";
    const creator = await plainPerson("dlpc");
    const pending = await newBet(creator);
    const res = await closeAccount(creator, PASSWORD);
    expect(res.status).toBe(409);
    expect(res.data.error).toBe(message);
    // cancelled (deleted) by its creator, the bet no longer holds them
    expect(
      (await creator.client.delete(`/api/bets/${pending.id}`)).status,
    ).toBe(204);

    const joiner = await plainPerson("dlpj");
    const referee = await plainPerson("dlpr");
    await befriend(creator, referee);
    const active = await newBet(creator, { refereeId: referee.user.id });
    await joinBetAs(joiner, active);
    for (const p of [creator, joiner, referee]) {
      const r = await closeAccount(p, PASSWORD);
      expect(r.status, p.user.username).toBe(409);
      expect(r.data.error).toBe(message);
    }
    // a live proposal keeps it open too
    expect(
      (
        await creator.client.post(`/api/bets/${active.id}/propose-settlement`, {
          winnerId: creator.user.id,
        })
      ).status,
    ).toBe(201);
    expect((await closeAccount(joiner, PASSWORD)).status).toBe(409);
    expect((await creator.client.get("/api/user")).status).toBe(200);
  });

  it("409 for the loser who owes and the winner who is owed, until it is paid", async () => {
    const loser = await plainPerson("dlol");
    const winner = await plainPerson("dlow");
    const bet = await betIn("settled", "public", loser, winner);
    expect((await closeAccount(loser, PASSWORD)).status).toBe(409);
    expect((await closeAccount(winner, PASSWORD)).status).toBe(409);
    await payOverHttp(loser.client, bet.id);
    expect((await closeAccount(winner, PASSWORD)).status).toBe(204);
  });

  it("204 anonymises the account; the other side's bet, settlement and ledger stay and show 'Deleted user'", async () => {
    const leaver = await plainPerson("dlok");
    const other = await plainPerson("dlot");
    const friend = await plainPerson("dlfr");
    await befriend(leaver, friend);
    // leaver created, other joined, leaver conceded and paid
    const bet = await betIn("settled", "public", leaver, other);
    await payOverHttp(leaver.client, bet.id);
    const avatar = await leaver.client.patch("/api/user/profile", {
      avatarUrl: "https://example.com/me.png",
    });
    expect(avatar.status).toBe(200);
    // a second device of the leaver's
    const device = new Client(server.url);
    expect(
      (
        await device.post("/api/login", {
          username: leaver.user.username,
          password: PASSWORD,
        })
      ).status,
    ).toBe(200);
    const oldCookie = leaver.client.cookieHeader;
    const before = (await other.client.get("/api/financial-history")).data;

    const res = await closeAccount(leaver, PASSWORD);
    expect(res.status, res.text).toBe(204);
    expect(res.headers.getSetCookie().join(";")).toMatch(/max-age=0/i);

    // Signed out everywhere; cannot sign in again under either name
    expect((await leaver.client.get("/api/user")).status).toBe(401);
    expect((await device.get("/api/user")).status).toBe(401);
    const replay = await new Client(server.url).get("/api/user", {
      Cookie: oldCookie,
    });
    expect(replay.status).toBe(401);
    for (const username of [
      leaver.user.username,
      `deleted-${leaver.user.id}`,
    ]) {
      const login = await new Client(server.url).post("/api/login", {
        username,
        password: PASSWORD,
      });
      expect(login.status, username).toBe(401);
    }

    // The row is anonymised
    const [row] = await rowsOf(
      "SELECT username, email, email_verified, avatar_url, password_hash, deleted_at FROM users WHERE id = ?",
      leaver.user.id,
    );
    if (!row) throw new Error("the closed account's row is gone");
    expect(row).toMatchObject({
      username: `deleted-${leaver.user.id}`,
      email: `deleted-${leaver.user.id}@deleted.invalid`,
      avatar_url: null,
    });
    expect(Boolean(row.email_verified)).toBe(false);
    expect(row.deleted_at).not.toBeNull();
    expect(String(row.password_hash)).not.toMatch(/argon2/);
    const left = Object.fromEntries(
      await Promise.all(
        [
          "sessions",
          "push_subscriptions",
          "notification_opt_outs",
          "email_tokens",
          "activity_events",
        ].map(async (t) => {
          const [counted] = await rowsOf<{ n: number }>(
            `SELECT count(*) AS n FROM ${t} WHERE user_id = ?`,
            leaver.user.id,
          );
          return [t, counted?.n];
        }),
      ),
    );
    expect(left).toEqual({
      sessions: 0,
      push_subscriptions: 0,
      notification_opt_outs: 0,
      email_tokens: 0,
      activity_events: 0,
    });
    const [friendships] = await rowsOf<{ n: number }>(
      "SELECT count(*) AS n FROM friendships WHERE requester_id = ? OR addressee_id = ?",
      leaver.user.id,
      leaver.user.id,
    );
    expect(friendships?.n).toBe(0);

    // The other side's history is whole, and names 'Deleted user'
    const seen = await other.client.get(`/api/bets/${bet.id}`);
    expect(seen.status).toBe(200);
    expect(seen.data.status).toBe("settled");
    expect(seen.data.participantIds).toEqual([leaver.user.id, other.user.id]);
    expect(seen.data.winnerId).toBe(other.user.id);
    const settlement = await other.client.get(`/api/settlements/${bet.id}`);
    expect(settlement.status).toBe(200);
    expect(settlement.data.paymentStatus).toBe("completed");
    const after = (await other.client.get("/api/financial-history")).data;
    expect(after).toEqual(before);
    const [ledger] = await rowsOf<{ n: number; total: number }>(
      "SELECT count(*) AS n, coalesce(sum(amount_cents), 0) AS total FROM ledger_entries WHERE bet_id = ?",
      bet.id,
    );
    if (!ledger) throw new Error("no ledger row");
    expect(ledger.n).toBeGreaterThanOrEqual(2);
    expect(ledger.total).toBe(0);
    const page = await other.client.get(`/bet/${bet.id}`, {
      Accept: "text/html",
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Deleted user");
    expect(page.text).not.toContain(leaver.user.username);
    const activity = await other.client.get("/api/activity");
    expect(activity.text).not.toContain(leaver.user.username);
    const profile = await other.client.get(`/api/users/${leaver.user.id}`);
    expect(profile.data.username).toBe("Deleted user");

    // Gone from friends and search; cannot be befriended
    const friends = await friend.client.get("/api/friends");
    expect(friends.text).not.toContain(leaver.user.username);
    expect(friends.text).not.toContain("Deleted user");
    for (const q of [leaver.user.username, "deleted"]) {
      const found = await other.client.get(
        `/api/users/search?q=${encodeURIComponent(q)}`,
      );
      expect(found.status).toBe(200);
      expect((found.data as { id: number }[]).map((u) => u.id)).not.toContain(
        leaver.user.id,
      );
    }
    const ask = await other.client.post("/api/friends", {
      friendId: leaver.user.id,
    });
    expect(ask.status).toBe(404);

    // The old name is free again; the old email too
    const again = await new Client(server.url).post("/api/register", {
      username: leaver.user.username,
      email: leaver.user.email,
      password: PASSWORD,
    });
    expect(again.status, again.text).toBe(201);
  });
});

describe("closing races a join", () => {
  it("never both: the join wins and the close is refused, or the close wins and the join is refused", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round += 1) {
      const creator = await plainPerson("rcc");
      const leaver = await plainPerson("rcl");
      const bet = await newBet(creator);
      const [close, join] = await Promise.all([
        closeAccount(leaver, PASSWORD),
        leaver.client.post(`/api/bets/${bet.id}/join`, {}),
      ]);
      outcomes.add(`${close.status}/${join.status}`);
      expect([close.status, join.status]).not.toEqual([204, 200]);
      const [seated] = await rowsOf<{ n: number }>(
        "SELECT count(*) AS n FROM bet_participants WHERE bet_id = ? AND user_id = ?",
        bet.id,
        leaver.user.id,
      );
      const seats = seated?.n;
      if (close.status === 204) expect(seats).toBe(0);
      else {
        expect(close.status).toBe(409);
        expect(seats).toBe(1);
      }
    }
    // Both orders are legal; each round ends in one of them.
    for (const o of outcomes) expect(["204/401", "409/200"]).toContain(o);
  });
});

describe("usernames starting with 'deleted-'", () => {
  it("are refused at registration and on a username change", async () => {
    const message = "Usernames may not start with 'deleted-'.";
    for (const username of ["deleted-7", "Deleted-bob"]) {
      const res = await new Client(server.url).post("/api/register", {
        username,
        email: `${uniqueName("dx")}@example.com`,
        password: PASSWORD,
      });
      expect(res.status, username).toBe(400);
      expect(res.data.fieldErrors.username).toEqual([message]);
    }
    const me = await plainPerson("dlrn");
    const change = await me.client.patch("/api/user/profile", {
      username: "deleted-7",
    });
    expect(change.status).toBe(400);
    expect(change.data.fieldErrors.username).toEqual([message]);
  });
});
