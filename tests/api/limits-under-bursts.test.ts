// Abuse limits under a burst of simultaneous requests
// (docs/product-rules.md#abuse-limits, docs/decisions/1035-limits-taken-atomically.md):
// however many requests arrive at once, and however many processes answer
// them, no more get through than one after another would. The burst is
// spread over two servers on one database: what two worker processes, or
// two machines on one database, are to each other (on SQLite, one process
// alone queues its transactions; two race for the file's lock).
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, uniqueName } from "../support/server";

const env = { RATE_LIMITS: "on", TRUST_PROXY: "Fly-Client-IP" };
const first = useServer(env);
const second = useServer(() => ({ ...env, ...first.databaseEnv }));
/** The i-th request of a burst goes to one server or the other. */
const serverFor = (i: number) => (i % 2 === 0 ? first.url : second.url);

let addresses = 0;
/** A fresh client address (through the trusted proxy header): its own limits. */
const nextAddress = () => {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

/** How many answers had each status: { 404: 20, 429: 100 }. */
function tally(statuses: number[]) {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/** Registers an account from an address of its own; answers its session cookie. */
async function register(password = "secret123") {
  const name = uniqueName("burst");
  const client = new Client(first.url);
  const res = await client.request("POST", "/api/register", {
    json: { username: name, email: `${name}@example.com`, password },
    headers: { "Fly-Client-IP": nextAddress() },
  });
  expect(res.status, res.text).toBe(201);
  return { name, id: res.data.id as number, cookie: client.cookieHeader };
}

/** A code of the right shape that names no bet (the alphabet has no I, L, O, 0, 1). */
const missingCode = (i: number) =>
  `ZZ${String(i).padStart(4, "2").replace(/[01]/g, "9")}`;

describe("code guesses (20 misses per account, 60 per address, per 10 minutes)", () => {
  it("120 simultaneous misses from one account: 20 are looked up, the rest are 429", async () => {
    const me = await register();
    const statuses = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        // A fresh address for each: only the account's limit applies.
        const res = await new Client(serverFor(i)).request(
          "GET",
          `/api/bets/code/${missingCode(i)}`,
          { headers: { Cookie: me.cookie, "Fly-Client-IP": nextAddress() } },
        );
        return res.status;
      }),
    );
    expect(tally(statuses)).toEqual({ 404: 20, 429: 100 });
  });

  it("100 simultaneous misses from one address, no account: 60 are looked up", async () => {
    const ip = nextAddress();
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const res = await new Client(serverFor(i)).request(
          "GET",
          `/api/bets/999999/share-meta?code=${missingCode(i)}`,
          { headers: { "Fly-Client-IP": ip } },
        );
        return res.status;
      }),
    );
    expect(tally(statuses)).toEqual({ 404: 60, 429: 40 });
  });

  it("a hit gives its attempt back; once the misses are used up, a hit is refused too", async () => {
    const owner = await register();
    const created = await new Client(first.url).request("POST", "/api/bets", {
      json: {
        title: "Burst bet",
        description: "Whoever loses buys the coffee.",
        amount: 20,
        deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        visibility: "private",
      },
      headers: { Cookie: owner.cookie },
    });
    expect(created.status, created.text).toBe(201);
    const code = created.data.code as string;
    const guesser = await register();
    const open = (i: number, what: string) =>
      new Client(serverFor(i))
        .request("GET", `/api/bets/code/${what}`, {
          headers: { Cookie: guesser.cookie, "Fly-Client-IP": nextAddress() },
        })
        .then((res) => res.status);
    // Hits, a few at a time (as a page, its preview and its image would).
    for (let round = 0; round < 5; round += 1)
      expect(
        tally(
          await Promise.all(
            Array.from({ length: 5 }, (_, i) => open(i + round, code)),
          ),
        ),
      ).toEqual({ 200: 5 });
    // The hits cost nothing: all twenty misses are still there.
    expect(
      tally(
        await Promise.all(
          Array.from({ length: 30 }, (_, i) => open(i, missingCode(i))),
        ),
      ),
    ).toEqual({ 404: 20, 429: 10 });
    // Used up: the right code is refused like a wrong one (no oracle).
    expect(await open(0, code)).toBe(429);
  });
});

describe("sign-in (a growing per-account delay after 4 free failures)", () => {
  it("20 simultaneous wrong passwords from 20 addresses: as many are checked as one after another (5)", async () => {
    const victim = await register();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await new Client(serverFor(i)).request(
          "POST",
          "/api/login",
          {
            json: { username: victim.name, password: `guess-${i}` },
            headers: { "Fly-Client-IP": nextAddress() },
          },
        );
        return res.status;
      }),
    );
    expect(tally(statuses)).toEqual({ 401: 5, 429: 15 });
  });

  it("40 simultaneous sign-ins from one address: 10 are answered, 30 are 429", async () => {
    const ip = nextAddress();
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await new Client(serverFor(i)).request(
          "POST",
          "/api/login",
          {
            // A different name each: the per-account delay stays out of it.
            json: { username: uniqueName("nobody"), password: "wrong" },
            headers: { "Fly-Client-IP": ip },
          },
        );
        return res.status;
      }),
    );
    expect(tally(statuses)).toEqual({ 401: 10, 429: 30 });
  });
});

describe("password resets (10 per address and 5 per login, taken together)", () => {
  it("30 simultaneous requests for one login from 30 addresses: 5 are accepted", async () => {
    const login = uniqueName("forgetful");
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const res = await new Client(serverFor(i)).request(
          "POST",
          "/api/password-reset",
          { json: { login }, headers: { "Fly-Client-IP": nextAddress() } },
        );
        return res.status;
      }),
    );
    expect(tally(statuses)).toEqual({ 202: 5, 429: 25 });
  });
});

describe("caps counted in the change's own serialised transaction", () => {
  it("10 simultaneous email changes from one account: 3 are made (3 an hour)", async () => {
    const me = await register();
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const res = await new Client(serverFor(i)).request(
          "PATCH",
          "/api/user/profile",
          {
            json: {
              email: `moved-${i}-${me.name}@example.com`,
              currentPassword: "secret123",
            },
            headers: { Cookie: me.cookie, "Fly-Client-IP": nextAddress() },
          },
        );
        return res.status;
      }),
    );
    expect(tally(statuses)).toEqual({ 200: 3, 429: 7 });
  });
});
