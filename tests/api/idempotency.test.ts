// Every write is safe to repeat (docs/product-rules.md#repeats): the
// Idempotency-Key header on /api and the hidden idempotencyKey field of page
// forms, one guard for both (app/pipeline/idempotency-guard.server.ts).
import crypto from "node:crypto";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { queryServerDatabase } from "../support/server-database";
import { freshDatabaseEnv } from "../support/test-database";
import { useServer } from "../support/use-server";
import { Client, signUp, startServer, uniqueName } from "../support/server";
import {
  activeBetOverHttp,
  GOOD_CARD,
  settledBetOverHttp,
} from "./settle-helpers";
import { API_CALLS, fillPath } from "../support/route-table";
import { betIn, person } from "../support/world";

const server = useServer();

// One deadline for the file: a repeat must send the very same body.
const DEADLINE = new Date(Date.now() + 2 * 86_400_000).toISOString();
const betInput = (title = "Who wins the derby") => ({
  title,
  description: "Home team wins the derby on Sunday.",
  amount: 25,
  deadline: DEADLINE,
  visibility: "public",
});

const key = () => crypto.randomUUID();
const keyed = (
  client: Client,
  method: string,
  path: string,
  k: string,
  json?: unknown,
) =>
  client.request(method, path, {
    json: json ?? {},
    headers: { "Idempotency-Key": k },
  });

/** A count read straight from the server's database, on either engine. */
async function count(sql: string, ...args: unknown[]) {
  const [row] = await queryServerDatabase<{ n: number }>(
    server.databaseEnv,
    sql,
    args,
  );
  return Number(row?.n);
}

describe("Idempotency-Key on /api", () => {
  it("a repeat gets the kept answer, marked replayed, and makes no second bet", async () => {
    const alice = await signUp(server.url);
    const k = key();
    const first = await keyed(alice.client, "POST", "/api/bets", k, betInput());
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await keyed(alice.client, "POST", "/api/bets", k, betInput());
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(
      await count(
        "SELECT count(*) AS n FROM bets WHERE creator_id = ?",
        alice.user.id,
      ),
    ).toBe(1);
  });

  it("the same key with other values is 422 and changes nothing", async () => {
    const alice = await signUp(server.url);
    const k = key();
    expect(
      (await keyed(alice.client, "POST", "/api/bets", k, betInput())).status,
    ).toBe(201);
    const other = await keyed(
      alice.client,
      "POST",
      "/api/bets",
      k,
      betInput("Another"),
    );
    expect(other.status).toBe(422);
    expect(other.data).toEqual({
      error: "This request was already sent with different values.",
    });
    expect(
      await count(
        "SELECT count(*) AS n FROM bets WHERE creator_id = ?",
        alice.user.id,
      ),
    ).toBe(1);
  });

  it("keys belong to their user: bob's identical key is another key", async () => {
    const alice = await signUp(server.url);
    const bob = await signUp(server.url);
    const k = key();
    expect(
      (await keyed(alice.client, "POST", "/api/bets", k, betInput())).status,
    ).toBe(201);
    const theirs = await keyed(bob.client, "POST", "/api/bets", k, betInput());
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
    expect(
      await count(
        "SELECT count(*) AS n FROM bets WHERE creator_id = ?",
        bob.user.id,
      ),
    ).toBe(1);
  });

  it("keys that are not 1–255 visible ASCII characters are 400", async () => {
    const alice = await signUp(server.url);
    for (const bad of ["", " ", "a b", "é", "x".repeat(256), "tab\there"]) {
      const res = await alice.client.request("POST", "/api/bets", {
        json: betInput(),
        headers: { "Idempotency-Key": bad },
      });
      // fetch refuses some header values itself; those never leave the client
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.data).toEqual({ error: "Invalid idempotency key." });
    }
    expect(
      await count(
        "SELECT count(*) AS n FROM bets WHERE creator_id = ?",
        alice.user.id,
      ),
    ).toBe(0);
    const longest = await keyed(
      alice.client,
      "POST",
      "/api/bets",
      "~".repeat(255),
      betInput(),
    );
    expect(longest.status).toBe(201);
  });

  it("five copies at once: one effect; the others replay it or are told to retry", async () => {
    const { betId, creator } = await activeBetOverHttp(server.url);
    const joiner = await signUp(server.url);
    // A fresh pending bet, joined five times at once with one key.
    const bet = await creator.client.post("/api/bets", betInput("Race"));
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        keyed(joiner.client, "POST", `/api/bets/${bet.data.id}/join`, k),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const a of answers)
      if (a.status === 409) {
        expect(a.data).toEqual({
          error: "This request is still being processed.",
        });
        expect(a.headers.get("Retry-After")).toBe("1");
      } else expect(a.status).toBe(200);
    expect(
      await count(
        "SELECT count(*) AS n FROM activity_events WHERE bet_id = ? AND type = 'bet_joined'",
        bet.data.id,
      ),
    ).toBe(1);
    // Retried after the first finished: the kept answer.
    const later = await keyed(
      joiner.client,
      "POST",
      `/api/bets/${bet.data.id}/join`,
      k,
    );
    expect(later.status).toBe(200);
    expect(later.headers.get("Idempotent-Replayed")).toBe("true");
    expect(betId).toBeGreaterThan(0);
  });

  it("a refusal that changed nothing frees the key for corrected values", async () => {
    const alice = await signUp(server.url);
    const k = key();
    const bad = await keyed(alice.client, "POST", "/api/bets", k, {
      ...betInput(),
      amount: 0,
    });
    expect(bad.status).toBe(400);
    const fixed = await keyed(alice.client, "POST", "/api/bets", k, betInput());
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("settling and paying twice with one key: one settlement, one payment, one set of ledger entries", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(server.url);
    const kp = key();
    const propose = () =>
      keyed(
        joiner.client,
        "POST",
        `/api/bets/${betId}/propose-settlement`,
        kp,
        {
          winnerId: joiner.user.id,
        },
      );
    expect((await propose()).status).toBe(201);
    const again = await propose();
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const ka = key();
    const approve = () =>
      keyed(creator.client, "POST", `/api/settlements/${betId}/approve`, ka);
    expect((await approve()).status).toBe(200);
    expect((await approve()).headers.get("Idempotent-Replayed")).toBe("true");

    const intent = await keyed(
      creator.client,
      "POST",
      "/api/create-payment-intent",
      key(),
      { betId },
    );
    expect(intent.status, intent.text).toBe(200);
    const paymentIntentId = intent.data.paymentIntentId as string;
    expect(
      (
        await creator.client.post("/api/payments/demo/confirm", {
          paymentIntentId,
          ...GOOD_CARD,
        })
      ).status,
    ).toBe(200);
    const kr = key();
    const record = () =>
      keyed(creator.client, "POST", `/api/bets/${betId}/record-payment`, kr, {
        paymentIntentId,
        amount: intent.data.amount,
      });
    const first = await record();
    expect(first.status, first.text).toBe(200);
    const second = await record();
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(
      await count(
        "SELECT count(*) AS n FROM payments WHERE bet_id = ? AND status = 'completed'",
        betId,
      ),
    ).toBe(1);
    expect(
      await count(
        "SELECT coalesce(sum(amount_cents), 0) AS n FROM ledger_entries",
      ),
    ).toBe(0);
  });

  it("without a key every call behaves as before", async () => {
    const alice = await signUp(server.url);
    expect((await alice.client.post("/api/bets", betInput())).status).toBe(201);
    expect((await alice.client.post("/api/bets", betInput())).status).toBe(201);
    expect(
      await count(
        "SELECT count(*) AS n FROM bets WHERE creator_id = ?",
        alice.user.id,
      ),
    ).toBe(2);
  });
});

describe("idempotencyKey in page forms", () => {
  async function formPost(
    client: Client,
    path: string,
    fields: Record<string, string>,
  ) {
    return client.request("POST", path, {
      body: new URLSearchParams(fields).toString(),
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "text/html",
      },
    });
  }
  const form = (k: string, title = "Form bet") => ({
    idempotencyKey: k,
    title,
    description: "Home team wins the derby on Sunday.",
    amount: "25",
    deadlineDate: new Date(Date.now() + 2 * 86_400_000)
      .toISOString()
      .slice(0, 10),
    visibility: "public",
  });

  it("the create-bet form posted twice makes one bet, and both answers lead to it", async () => {
    const alice = await signUp(server.url);
    const page = await alice.client.request("GET", "/create-bet", {
      headers: { Accept: "text/html" },
    });
    const rendered = /name="idempotencyKey" value="([^"]+)"/.exec(
      page.text,
    )?.[1];
    expect(rendered, "the server renders the key into the form").toBeTruthy();
    const first = await formPost(alice.client, "/create-bet", form(rendered!));
    expect(first.status, first.text.slice(0, 300)).toBe(302);
    const second = await formPost(alice.client, "/create-bet", form(rendered!));
    expect(second.status).toBe(302);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(
      await count(
        "SELECT count(*) AS n FROM bets WHERE creator_id = ?",
        alice.user.id,
      ),
    ).toBe(1);
    // Each render has a fresh key.
    const again = await alice.client.request("GET", "/create-bet", {
      headers: { Accept: "text/html" },
    });
    expect(
      /name="idempotencyKey" value="([^"]+)"/.exec(again.text)?.[1],
    ).not.toBe(rendered);
  });

  const SENT_WITH_OTHER_VALUES =
    "This request was already sent with different values.";
  const renderedKey = (html: string) =>
    /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
  const betsOf = (userId: number) =>
    count("SELECT count(*) AS n FROM bets WHERE creator_id = ?", userId);

  it("other values under a sent key (no JavaScript): 422, the form as typed, a fresh key, nothing made", async () => {
    const alice = await signUp(server.url);
    const k = key();
    expect((await formPost(alice.client, "/create-bet", form(k))).status).toBe(
      302,
    );
    const other = await formPost(
      alice.client,
      "/create-bet",
      form(k, "Changed my mind"),
    );
    expect(other.status, other.text.slice(0, 300)).toBe(422);
    expect(other.text).toContain(SENT_WITH_OTHER_VALUES);
    expect(other.text).toContain('value="Changed my mind"');
    const fresh = renderedKey(other.text);
    expect(fresh, "the form carries a key").toBeTruthy();
    expect(fresh).not.toBe(k);
    expect(await betsOf(alice.user.id)).toBe(1);
    // The fresh key sends the form as typed.
    const sent = await formPost(
      alice.client,
      "/create-bet",
      form(fresh!, "Changed my mind"),
    );
    expect(sent.status, sent.text.slice(0, 300)).toBe(302);
    expect(await betsOf(alice.user.id)).toBe(2);
  });

  it("other values under a sent key (JavaScript, .data): 422 with the typed values, nothing made", async () => {
    const alice = await signUp(server.url);
    const k = key();
    expect((await formPost(alice.client, "/create-bet", form(k))).status).toBe(
      302,
    );
    const other = await alice.client.request("POST", "/create-bet.data", {
      body: new URLSearchParams(form(k, "Changed my mind")).toString(),
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "*/*",
      },
    });
    expect(other.status, other.text.slice(0, 300)).toBe(422);
    expect(other.text).toContain(SENT_WITH_OTHER_VALUES);
    expect(other.text).toContain("Changed my mind");
    expect(other.headers.get("Location")).toBeNull();
    expect(await betsOf(alice.user.id)).toBe(1);
  });

  it("other values under a sent key stop every change before it commits: profile and payment method", async () => {
    const alice = await signUp(server.url);
    const profile = await alice.client.request("GET", "/profile/edit", {
      headers: { Accept: "text/html" },
    });
    const email = /name="email"[^>]*value="([^"]+)"/.exec(profile.text)?.[1];
    expect(email, "the edit form shows the address").toBeTruthy();
    const k = key();
    const renamed = uniqueName("renamed");
    const typed = uniqueName("typed");
    const first = await formPost(alice.client, "/profile/edit", {
      idempotencyKey: k,
      username: renamed,
      email: email!,
      avatarUrl: "",
    });
    expect(first.status, first.text.slice(0, 300)).toBe(302);
    const other = await formPost(alice.client, "/profile/edit", {
      idempotencyKey: k,
      username: typed,
      email: email!,
      avatarUrl: "",
    });
    expect(other.status, other.text.slice(0, 300)).toBe(422);
    expect(other.text).toContain(SENT_WITH_OTHER_VALUES);
    expect(other.text).toContain(`value="${typed}"`);
    const [row] = await queryServerDatabase<{ username: string }>(
      server.databaseEnv,
      "SELECT username FROM users WHERE id = ?",
      [alice.user.id],
    );
    expect(row?.username).toBe(renamed);

    const p = key();
    const connect = (connected: string) =>
      formPost(alice.client, "/profile", {
        idempotencyKey: p,
        intent: "payment-method",
        method: "venmo",
        connected,
      });
    expect((await connect("true")).status).toBe(302);
    const flipped = await connect("false");
    expect(flipped.status, flipped.text.slice(0, 300)).toBe(422);
    expect(flipped.text).toContain(SENT_WITH_OTHER_VALUES);
    const [flags] = await queryServerDatabase<{ venmo: number | boolean }>(
      server.databaseEnv,
      "SELECT venmo_connected AS venmo FROM users WHERE id = ?",
      [alice.user.id],
    );
    expect(Boolean(flags?.venmo), "still connected").toBe(true);
  });

  it("a key replayed after a restart still gets the kept answer", async () => {
    // Its own server on a database that outlives it.
    const { env, dir } = await freshDatabaseEnv();
    let first = await startServer(env);
    try {
      const alice = await signUp(first.url);
      const k = key();
      const made = await keyed(
        alice.client,
        "POST",
        "/api/bets",
        k,
        betInput(),
      );
      expect(made.status).toBe(201);
      await first.stop();
      first = await startServer(env);
      const cookie = alice.client.cookieHeader;
      const again = await fetch(`${first.url}/api/bets`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Cookie: cookie,
          "Idempotency-Key": k,
        },
        body: JSON.stringify(betInput()),
      });
      expect(again.status).toBe(201);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await again.text()).toBe(made.text);
    } finally {
      await first.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("every state-changing /api call (generated from docs/api.md's table)", () => {
  const OUTSIDE = new Set(["/api/login", "/api/register", "/api/logout"]);
  const calls = API_CALLS.filter(
    (c) =>
      c.method !== "GET" &&
      c.access === "session" &&
      !c.rawBody &&
      !OUTSIDE.has(c.route),
  );

  it("covers the calls", () => expect(calls.length).toBeGreaterThan(20));

  it("each refuses a malformed key, and answers a keyed repeat as it answered the first", async () => {
    const creator = await person(server.url, "ik");
    const other = await person(server.url, "io");
    const failures: string[] = [];
    for (const call of calls) {
      const bet = await betIn(call.bet ?? "active", "public", creator, other);
      const path =
        call.path ??
        fillPath(call.route, {
          id: bet.id,
          code: bet.code,
          userId: other.user.id,
        });
      const send = (k: string) =>
        creator.client.request(call.method, path, {
          json: {},
          headers: { "Idempotency-Key": k },
        });
      const bad = await send("not a key");
      if (bad.status !== 400 || bad.data?.error !== "Invalid idempotency key.")
        failures.push(`${call.method} ${call.route}: bad key → ${bad.status}`);
      const k = key();
      const first = await send(k);
      const again = await send(k);
      const replayed = again.headers.get("Idempotent-Replayed") === "true";
      if (
        first.status < 400 &&
        (!replayed ||
          again.text !== first.text ||
          again.status !== first.status)
      )
        failures.push(
          `${call.method} ${call.route}: ${first.status} then ${again.status}, replayed ${replayed}`,
        );
    }
    expect(failures).toEqual([]);
  });
});

describe("a kept page answer that is a page, not a redirect", () => {
  it("a declined card sent twice with one key: the same page again, readable, marked replayed", async () => {
    const { betId, loser } = await settledBetOverHttp(server.url);
    const k = key();
    const send = () =>
      loser.client.request("POST", `/checkout/${betId}`, {
        body: new URLSearchParams({
          idempotencyKey: k,
          cardNumber: "4000 0000 0000 0002",
          expiry: "12/40",
          cvc: "123",
        }).toString(),
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "text/html",
          "Accept-Encoding": "gzip",
        },
      });
    const first = await send();
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(first.text).toContain("Your card was declined.");
    const again = await send();
    expect(again.status).toBe(first.status);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.text).toContain("Your card was declined.");
  });
});

describe("keys and sessions, addresses and closed accounts", () => {
  it("a keyed request that ends the session clears the cookie on its first answer", async () => {
    const alice = await signUp(server.url);
    const closed = await alice.client.request("DELETE", "/api/user", {
      json: { password: "secret123" },
      headers: { "Idempotency-Key": key() },
    });
    expect(closed.status, closed.text).toBe(204);
    // The jar dropped the cookie only if the answer cleared it.
    expect(alice.client.cookieHeader).not.toMatch(/fairshake_session=/);
  });

  it("signing in is outside the key rule in any case and with a trailing slash", async () => {
    const alice = await signUp(server.url);
    const bob = await signUp(server.url);
    for (const path of ["/API/LOGIN", "/api/login/"]) {
      const res = await alice.client.request("POST", path, {
        json: { username: bob.user.username, password: "secret123" },
        headers: { "Idempotency-Key": key() },
      });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      const me = await alice.client.get("/api/user");
      expect(me.data.username, path).toBe(bob.user.username);
    }
  });

  it("closing an account deletes its kept answers", async () => {
    const alice = await signUp(server.url);
    const kept = await keyed(alice.client, "POST", "/api/bets", key(), {
      ...betInput("Kept, then forgotten"),
    });
    expect(kept.status, kept.text).toBe(201);
    const withdrawn = await alice.client.request(
      "DELETE",
      `/api/bets/${kept.data.id}`,
      { headers: { "Idempotency-Key": key() } },
    );
    expect(withdrawn.status, withdrawn.text).toBeLessThan(300);
    expect(
      await count(
        "SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ?",
        alice.user.id,
      ),
    ).toBe(2);
    const closed = await keyed(alice.client, "DELETE", "/api/user", key(), {
      password: "secret123",
    });
    expect(closed.status, closed.text).toBe(204);
    // Only the closing request's own claim stays: its answer names no one.
    const left = await queryServerDatabase<{ body: unknown }>(
      server.databaseEnv,
      "SELECT body FROM idempotency_keys WHERE user_id = ?",
      [alice.user.id],
    );
    expect(left).toHaveLength(1);
    expect(String(left[0]!.body ?? "")).not.toContain(alice.user.username);
  });

  it("the fingerprint covers the query string", async () => {
    const alice = await signUp(server.url);
    const k = key();
    const first = await keyed(alice.client, "POST", "/api/bets?a=1", k, {
      ...betInput("Query one"),
    });
    expect(first.status, first.text).toBe(201);
    const other = await keyed(alice.client, "POST", "/api/bets?a=2", k, {
      ...betInput("Query one"),
    });
    expect(other.status, other.text).toBe(422);
    expect(other.data).toEqual({
      error: "This request was already sent with different values.",
    });
  });

  it("a public share image names no signed-in person", async () => {
    const alice = await signUp(server.url);
    const bet = await alice.client.post("/api/bets", betInput("Shared"));
    const image = await alice.client.get(
      `/api/bets/${bet.data.id}/share-image`,
    );
    expect(image.status).toBe(200);
    expect(image.headers.get("Cache-Control")).toMatch(/public/);
    expect(image.headers.get("X-Fairshake-User")).toBeNull();
  });
});
