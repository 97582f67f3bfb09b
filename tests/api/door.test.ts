// Holding the door: the holes a black-box probe of the production
// build found, each with the test that failed before it was mended. The body
// limit and the sign-in limit are checked for every route in app/routes.ts
// and every spelling of a path the router still serves.
import { describe, expect, it } from "vitest";
import { useServer, useServers } from "../support/use-server";
import { betIn, newBet, person } from "../support/world";
import { listAppRoutes } from "../support/route-table";
import { Client, signUp, uniqueName } from "../support/server";
import { postStreamed } from "../support/streaming";

const FORM_LIMIT = 65_536;
const JSON_LIMIT = 16_384;
const AVATAR_LIMIT = 2 * 1024 * 1024;

const server = useServer();

const form = { "Content-Type": "application/x-www-form-urlencoded" };
const json = { "Content-Type": "application/json" };

describe("1, 6. every body is refused past its route's limit while it streams", () => {
  it("an anonymous 100 MB form to /auth, declared: 413 before it is read", async () => {
    const answer = await postStreamed(server.url, "/auth", {
      headers: form,
      first: "intent=login&username=",
      declaredLength: 100 * 1024 * 1024,
      sentLimit: 16 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("too large");
  });

  it("an anonymous form without a Content-Length: 413 once past the limit, not read whole", async () => {
    const answer = await postStreamed(server.url, "/auth", {
      headers: form,
      first: "intent=register&username=",
      sentLimit: 16 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
  });

  it("a single-fetch .data request is held to its page's limit", async () => {
    const answer = await postStreamed(server.url, "/auth.data", {
      headers: form,
      first: "intent=login&username=",
      sentLimit: 16 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
  });

  it("a signed-in 50 MB chunked form to /profile/edit: 413, the avatar's limit and no more", async () => {
    const { client } = await signUp(server.url);
    const answer = await postStreamed(server.url, "/profile/edit", {
      headers: { ...form, Cookie: client.cookieHeader },
      first: "username=",
      sentLimit: 24 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("larger than 2 MB");
  });

  it("a JSON body over 16 KB without a Content-Length gets its 413 answer, not a dropped connection", async () => {
    const { client } = await signUp(server.url);
    const answer = await postStreamed(server.url, "/api/bets", {
      headers: { ...json, Cookie: client.cookieHeader },
      first: '{"title":"',
      sentLimit: 16 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatch(/too large/i);
  });

  it("a body within its limit still works, chunked (the limit is not a refusal of chunking)", async () => {
    const name = uniqueName("chunk");
    const body = JSON.stringify({
      username: name,
      email: `${name}@example.com`,
      password: "secret123",
    });
    const res = await fetch(`${server.url}/api/register`, {
      method: "POST",
      headers: json,
      body: new Blob([body]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(201);
  });

  // Generated: a route added to app/routes.ts cannot escape the limit.
  const routes = listAppRoutes();
  it.each(routes.map((r) => [r.path, r] as const))(
    "POST %s past its limit: 413",
    async (_path, route) => {
      const path = route.path.replace(/:(\w+)/g, (_m, p) =>
        p === "code" ? "ABCDEF" : "1",
      );
      const big =
        route.file === "routes/profile/edit.tsx"
          ? AVATAR_LIMIT
          : route.file.endsWith("stripe-webhook.ts")
            ? 512 * 1024
            : route.api
              ? JSON_LIMIT
              : FORM_LIMIT;
      const answer = await postStreamed(server.url, path, {
        headers: route.api ? json : form,
        declaredLength: big + 1,
        sentLimit: big * 8 + 1024 * 1024,
      });
      // The API's cross-site and content-type doors may answer first; what
      // must never happen is a route reading the body whole.
      expect(answer.status).toBe(413);
    },
  );
});

describe("2, 3, 4. sign-in limits attach to the act, trust no one's header, lock no owner out", () => {
  const [limited, untrusted] = useServers(
    { RATE_LIMITS: "on", TRUST_PROXY: "Fly-Client-IP" },
    { RATE_LIMITS: "on" },
  );

  const attempt = (
    url: string,
    path: string,
    ip: string | undefined,
    kind: "json" | "form",
  ) =>
    new Client(url).request("POST", path, {
      headers: {
        ...(ip ? { "Fly-Client-IP": ip } : {}),
        ...(kind === "form" ? form : {}),
      },
      ...(kind === "json"
        ? { json: { username: uniqueName("nobody"), password: "wrong-one" } }
        : {
            body: `intent=login&username=${uniqueName("nobody")}&password=wrong-one`,
          }),
    });

  it("after 429 on /api/login, no other spelling of a login or sign-up path checks a password", async () => {
    const ip = "203.0.113.40";
    for (let i = 0; i < 10; i += 1)
      expect(
        (await attempt(limited.url, "/api/login", ip, "json")).status,
      ).toBe(401);
    expect((await attempt(limited.url, "/api/login", ip, "json")).status).toBe(
      429,
    );
    for (const path of [
      "/api/LOGIN",
      "/api/login/",
      "/%61pi/login",
      "/api/register",
      "/API/Register",
    ])
      expect((await attempt(limited.url, path, ip, "json")).status, path).toBe(
        429,
      );
    for (const path of ["/auth", "/AUTH", "/auth/", "/auth.data", "/Auth.data"])
      expect((await attempt(limited.url, path, ip, "form")).status, path).toBe(
        429,
      );
    // Another address is not held back.
    expect(
      (await attempt(limited.url, "/api/login", "203.0.113.41", "json")).status,
    ).toBe(401);
  });

  it("outside a trusted proxy, a new Fly-Client-IP per request does not reset the limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push(
        (await attempt(untrusted.url, "/api/login", `198.51.100.${i}`, "json"))
          .status,
      );
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("a browser that signed in before is not held back by failures from elsewhere; guessing stays slow", async () => {
    const name = uniqueName("owner");
    const owner = new Client(limited.url);
    const ownerIp = { "Fly-Client-IP": "192.0.2.150" };
    expect(
      (
        await owner.request("POST", "/api/register", {
          json: {
            username: name,
            email: `${name}@example.com`,
            password: "secret123",
          },
          headers: ownerIp,
        })
      ).status,
    ).toBe(201);
    // The owner signs in once: this browser now carries a device cookie.
    const first = await owner.request("POST", "/api/login", {
      json: { username: name, password: "secret123" },
      headers: ownerIp,
    });
    expect(first.status).toBe(200);
    expect(owner.cookieHeader).toMatch(/fairshake_device=/);

    // Someone else tries wrong passwords from rotating addresses.
    for (let i = 0; i < 8; i += 1) {
      const res = await new Client(limited.url).request("POST", "/api/login", {
        json: { username: name, password: `guess-${i}` },
        headers: { "Fly-Client-IP": `192.0.2.${160 + i}` },
      });
      expect([401, 429]).toContain(res.status);
    }
    // A stranger's browser, even with the right password, waits…
    const stranger = await new Client(limited.url).request(
      "POST",
      "/api/login",
      {
        json: { username: name, password: "secret123" },
        headers: { "Fly-Client-IP": "192.0.2.199" },
      },
    );
    expect(stranger.status).toBe(429);
    // …the owner's browser does not, on the page or the API.
    const again = await owner.request("POST", "/api/login", {
      json: { username: name, password: "secret123" },
      headers: ownerIp,
    });
    expect(again.status).toBe(200);
    const page = await owner.request("POST", "/auth", {
      body: `intent=login&username=${name}&password=secret123`,
      headers: { ...form, ...ownerIp },
    });
    expect(page.status).toBe(302);
  });
});

describe("5. private codes cannot be guessed at speed", () => {
  const limited = useServer({
    RATE_LIMITS: "on",
    TRUST_PROXY: "Fly-Client-IP",
  });

  const miss = (client: Client, ip: string, i: number) =>
    client.get(`/api/bets/code/ZZZ${String(i).padStart(3, "2").slice(-3)}`, {
      "Fly-Client-IP": ip,
    });

  it("an account's misses run out (429 with Retry-After), from any address, and then even a right code waits", async () => {
    const guesser = await person(limited.url, "guess");
    const owner = await person(limited.url, "own");
    const secret = await newBet(owner, { visibility: "private" });
    for (let i = 0; i < 20; i += 1)
      expect((await miss(guesser.client, `10.1.0.${i}`, i)).status).toBe(404);
    const over = await miss(guesser.client, "10.1.0.99", 99);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    const hit = await guesser.client.get(`/api/bets/code/${secret.code}`, {
      "Fly-Client-IP": "10.1.0.98",
    });
    expect(hit.status).toBe(429);
    // The owner's own lookups are theirs.
    const own = await owner.client.get(`/api/bets/code/${secret.code}`, {
      "Fly-Client-IP": "10.1.0.97",
    });
    expect(own.status).toBe(200);
  });

  it("an address's misses run out across accounts and across doors (join page, share links, share-meta)", async () => {
    const ip = "10.2.0.1";
    const people = await Promise.all(
      [1, 2, 3, 4].map(() => person(limited.url)),
    );
    let misses = 0;
    for (const p of people)
      for (let i = 0; i < 15; i += 1, misses += 1)
        expect((await miss(p.client, ip, misses)).status).toBe(404);
    expect(misses).toBe(60);
    const fresh = await person(limited.url);
    expect((await miss(fresh.client, ip, 1)).status).toBe(429);
    const joinPage = await fresh.client.get("/join/ZZZ222", {
      "Fly-Client-IP": ip,
    });
    expect(joinPage.status).toBe(429);
    const meta = await new Client(limited.url).get(
      "/api/bets/1/share-meta?code=ZZZ333",
      { "Fly-Client-IP": ip },
    );
    expect(meta.status).toBe(429);
    const share = await new Client(limited.url).get("/share/1?code=ZZZ444", {
      "Fly-Client-IP": ip,
      Accept: "text/html",
    });
    expect(share.status).toBe(429);
    // Elsewhere, visitors' share-meta misses count too.
    const visitorIp = "10.3.0.1";
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1)
      statuses.push(
        (
          await new Client(limited.url).get(
            `/api/bets/999999/share-meta?code=Z${String(i).padStart(5, "2")}`,
            { "Fly-Client-IP": visitorIp },
          )
        ).status,
      );
    expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});

describe("7. the API stores what was sent or refuses it", () => {
  const bet = {
    title: "Strict input",
    description: "Stored exactly as sent",
    amount: 20,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
  };

  it.each([
    ["amount true", { amount: true }],
    ["amount hexadecimal", { amount: "0x10" }],
    ["amount in an array", { amount: [5] }],
    ["amount exponent string", { amount: "1e3" }],
    ["an impossible date", { deadline: "2030-02-30T00:00:00Z" }],
    ["an impossible hour", { deadline: "2030-02-10T25:00:00Z" }],
    ["a title of NUL characters", { title: "\u0000\u0000" }],
    ["a title with a tab", { title: "Tab\there" }],
    ["a title with a line break", { title: "Two\nlines" }],
    ["a description with NUL", { description: "Hidden \u0000 byte" }],
  ])("%s is 400", async (_name, over) => {
    const { client } = await signUp(server.url);
    const res = await client.post("/api/bets", { ...bet, ...over });
    expect(res.status).toBe(400);
    expect(res.data.fieldErrors).toBeTruthy();
  });

  it("a lone surrogate cannot be stored, so it is 400", async () => {
    const { client } = await signUp(server.url);
    const raw = JSON.stringify({ ...bet, title: "Half " }).replace(
      "Half ",
      "Half \\ud800",
    );
    const res = await client.request("POST", "/api/bets", {
      body: raw,
      headers: json,
    });
    expect(res.status).toBe(400);
    expect(res.data.fieldErrors.title[0]).toMatch(/cannot be stored/);
  });

  it("bytes that are not UTF-8 are 400, not replacement characters", async () => {
    const { client } = await signUp(server.url);
    const body = Buffer.concat([
      Buffer.from('{"title":"Bad '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(
        '","description":"Long enough to pass","amount":5,"visibility":"public","deadline":"2031-01-01T00:00:00Z"}',
      ),
    ]);
    const res = await client.request("POST", "/api/bets", {
      body,
      headers: json,
    });
    expect(res.status).toBe(400);
  });

  it("a decimal string amount and an ISO date with an offset are what the form sends: accepted", async () => {
    const { client } = await signUp(server.url);
    const res = await client.post("/api/bets", {
      ...bet,
      amount: "25",
      deadline: "2031-06-30T18:30:00+02:00",
      description: "Two lines\nare fine here",
    });
    expect(res.status).toBe(201);
    const stored = await client.get(`/api/bets/${res.data.id}`);
    expect(stored.data.amount).toBe(25);
    expect(stored.data.deadline).toBe("2031-06-30T16:30:00.000Z");
    expect(stored.data.description).toBe("Two lines\nare fine here");
  });
});

describe("8. look-alike usernames", () => {
  const register = (username: string) =>
    new Client(server.url).post("/api/register", {
      username,
      email: `${uniqueName("mail")}@example.com`,
      password: "secret123",
    });

  it("Cyrillic and fullwidth look-alikes of an existing name are refused; the fullwidth spelling is stored as plain letters", async () => {
    const base = `alice${Math.random().toString(36).slice(2, 7)}`;
    expect((await register(base)).status).toBe(201);
    const cyrillic = register("\u0430" + base.slice(1)); // Cyrillic а
    expect((await cyrillic).status).toBe(409);
    expect((await cyrillic).data.error).toMatch(/looks too much like/);
    const fullwidth = [...base]
      .map((c) =>
        /[a-z]/.test(c)
          ? String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff41)
          : String.fromCharCode(c.charCodeAt(0) - 0x30 + 0xff10),
      )
      .join("");
    expect((await register(fullwidth)).status).toBe(409);
    const capitalI = `I${base}`;
    const lowerL = `l${base}`;
    expect((await register(lowerL)).status).toBe(201);
    expect((await register(capitalI)).status).toBe(409);
    const other = await register(
      `ｂｏｂ${Math.random().toString(36).slice(2, 7)}`,
    );
    expect(other.status).toBe(201);
    expect(other.data.username).toMatch(/^bob/);
  });

  it("a profile rename to a look-alike is refused too", async () => {
    const base = `carol${Math.random().toString(36).slice(2, 7)}`;
    expect((await register(base)).status).toBe(201);
    const { client } = await signUp(server.url);
    const res = await client.patch("/api/user/profile", {
      username: base.replace("o", "\u043e"), // Cyrillic о
    });
    expect(res.status).toBe(409);
  });

  it("a username of exactly 50 characters is accepted (docs/product-rules.md#amounts-and-limits), 51 is not", async () => {
    const fifty = `u${Math.random().toString(36).slice(2, 8)}`.padEnd(50, "x");
    expect((await register(fifty)).status).toBe(201);
    expect((await register(`${fifty.slice(0, 49)}yz`)).status).toBe(400);
  });
});

describe("9, 10. caching, intents, duplicate headers", () => {
  it("everything that depends on the session is private, no-store", async () => {
    const alice = await person(server.url);
    const bob = await person(server.url);
    const bet = await betIn("active", "public", alice, bob);
    for (const path of [
      "/",
      `/bet/${bet.id}`,
      "/profile",
      "/my-bets",
      "/api/user",
      "/api/financial-history",
      `/api/bets/${bet.id}`,
    ]) {
      const res = await alice.client.get(path, { Accept: "text/html" });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
  });

  it("two create-payment-intent calls before paying answer the same open intent", async () => {
    const alice = await person(server.url);
    const bob = await person(server.url);
    // Settled by alice's concession: alice is the loser who pays.
    const bet = await betIn("settled", "public", alice, bob);
    const first = await alice.client.post("/api/create-payment-intent", {
      betId: bet.id,
    });
    const second = await alice.client.post("/api/create-payment-intent", {
      betId: bet.id,
    });
    expect(first.status).toBe(200);
    expect(first.data.paymentIntentId).toBeTruthy();
    expect(second.data.paymentIntentId).toBe(first.data.paymentIntentId);
  });

  it("an avatar answer carries its CSP and nosniff once", async () => {
    const { client, user } = await signUp(server.url);
    const sharp = (await import("sharp")).default;
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: "#123456" },
    })
      .png()
      .toBuffer();
    const boundary = "----door";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await client.request("POST", "/profile/edit", {
      body,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(up.status).toBe(302);
    const res = await client.get(`/avatars/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).not.toContain(",");
  });
});
