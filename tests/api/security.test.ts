// Security headers on every page and API answer (walked from app/routes.ts
// with real ids), cross-site POSTs refused on every write, and the sign-in
// limits: per address (429 on the 11th in a minute) and per account (a
// growing delay that never locks anyone out). tests/api/auth.test.ts checks
// one page's headers and one cross-site POST; this walks them all.
import http from "node:http";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { headOfStream } from "../support/event-stream";
import {
  API_CALLS,
  fillPath,
  listAppRoutes,
  type AppRoute,
} from "../support/route-table";
import { Client, signUp, uniqueName } from "../support/server";
import { solidImage } from "../support/images";
import { betIn, person, type BetRef, type Person } from "../support/world";

const appRoutes = listAppRoutes();
const served = new Set(appRoutes.map((r) => r.path));

const server = useServer();
let me: Person;
let partner: Person;
let bets: Partial<Record<"pending" | "active" | "settled", BetRef>>;
beforeAll(async () => {
  me = await person(server.url, "sh");
  partner = await person(server.url, "sp");
  bets = {
    pending: await betIn("pending", "public", me, partner),
    active: await betIn("active", "public", me, partner),
  };
  if (served.has("/api/bets/:id/settle"))
    bets.settled = await betIn("settled", "public", me, partner);
  if (served.has("/avatars/:userId")) {
    // An uploaded avatar, so /avatars/{id} answers with the image itself.
    const form = new FormData();
    const png = await solidImage(48, 48);
    form.append(
      "avatar",
      new Blob([new Uint8Array(png)], { type: "image/png" }),
      "me.png",
    );
    const up = await me.client.request("POST", "/profile/edit", {
      body: form,
      headers: {},
    });
    expect(up.status).toBe(302);
  }
});

/** A real path for a route: settlement and payment screens get the settled bet. */
function realPath(route: AppRoute): string {
  const fromTable = API_CALLS.find((c) => c.route === route.path && c.path);
  if (fromTable?.path) return fromTable.path;
  const bet = /settle|payment|checkout|approve|reject/.test(route.path)
    ? (bets.settled ?? bets.active!)
    : /propose/.test(route.path)
      ? bets.active!
      : bets.pending!;
  const kind = route.path.includes(":kind") ? "created" : undefined;
  return fillPath(route.path.replace(":kind", kind ?? ":kind"), {
    id: bet.id,
    code: bet.code,
    userId: me.user.id,
  }).replace(":decision", "accept");
}

function expectSecurityHeaders(
  res: { status: number; headers: Headers; text: string },
  what: string,
) {
  const csp = res.headers.get("content-security-policy");
  expect(csp, `${what}: an enforced CSP`).toBeTruthy();
  expect(res.headers.get("content-security-policy-report-only")).toBeNull();
  const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp!)?.[1];
  expect(nonce, `${what}: script-src with a nonce`).toBeTruthy();
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).not.toMatch(/'unsafe-eval'/);
  for (const directive of [
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ])
    expect(csp, `${what}: ${directive}`).toContain(directive);
  // A route may repeat it ("nosniff, nosniff"); browsers read the first value.
  expect(
    res.headers.get("x-content-type-options")?.split(/,\s*/)[0],
    what,
  ).toBe("nosniff");
  expect(res.headers.get("referrer-policy"), what).toMatch(
    /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
  );
  // Every script in a page is ours: it carries this response's nonce.
  if ((res.headers.get("content-type") ?? "").includes("text/html"))
    for (const tag of res.text.match(/<script\b[^>]*>/gi) ?? [])
      expect(tag, `${what}: script without this response's nonce`).toContain(
        `nonce="${nonce}"`,
      );
}

describe("security headers", () => {
  const walked = appRoutes.map((r) => [r.path, r] as const);

  it.each(walked)(
    "on %s (signed in, anonymous, over https)",
    async (_p, route) => {
      const p = realPath(route);
      const method = route.hasLoader ? "GET" : "POST";
      const accept = route.api ? "application/json" : "text/html";
      // Signing out ends the shared session: that call gets its own person.
      const who = /logout/.test(p) ? await person(server.url, "so") : me;
      // An event stream never ends by itself: its head is what is checked.
      const stream = API_CALLS.some((c) => c.route === route.path && c.stream);
      const ask = (client: Client, headers: Record<string, string>) =>
        stream
          ? headOfStream(client, p, headers)
          : client.request(method, p, {
              headers,
              ...(method === "POST" && route.api && client !== anon
                ? { json: {} }
                : {}),
            });
      const anon = new Client(server.url);
      const signedIn = await ask(who.client, { Accept: accept });
      expect(signedIn.status, `${method} ${p}`).toBeLessThan(500);
      if (route.path === "/avatars/:userId")
        expect(signedIn.headers.get("content-type")).toMatch(/^image\//);
      expectSecurityHeaders(signedIn, `${method} ${p} signed in`);
      const anonymous = await ask(anon, { Accept: accept });
      expectSecurityHeaders(anonymous, `${method} ${p} anonymous`);
      const https = await ask(who.client, {
        Accept: accept,
        "X-Forwarded-Proto": "https",
      });
      expect(https.headers.get("strict-transport-security"), p).toMatch(
        /max-age=(\d{8,})/,
      );
    },
  );

  it.each([
    ["a static file", "/favicon.svg", "GET"],
    ["the health check", "/healthz", "GET"],
    ["an unknown page", "/no/such/page", "GET"],
    ["an unknown API path", "/api/nope", "GET"],
    ["a refused content type (415)", "/api/bets", "POST-text"],
    ["a body too large (413)", "/api/bets", "POST-big"],
  ])("on %s", async (_what, p, how) => {
    const res =
      how === "GET"
        ? await me.client.get(p)
        : await me.client.request("POST", p, {
            body: how === "POST-big" ? "x".repeat(20_000) : "x",
            headers: {
              "Content-Type":
                how === "POST-big" ? "application/json" : "text/plain",
            },
          });
    expectSecurityHeaders(res, p);
  });

  it("draws a fresh nonce for every response", async () => {
    const a = await me.client.get("/");
    const b = await me.client.get("/");
    const nonceOf = (h: Headers) =>
      /'nonce-([^']+)'/.exec(h.get("content-security-policy") ?? "")?.[1];
    expect(nonceOf(a.headers)).toBeTruthy();
    expect(nonceOf(a.headers)).not.toBe(nonceOf(b.headers));
  });

  it("sends no HSTS over plain http in production, and none is needed to sign in", async () => {
    const res = await new Client(server.url).get("/auth");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("compression", () => {
  /** The raw answer: bytes as sent, before any decoding. */
  function raw(path: string, acceptEncoding?: string) {
    return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        http
          .get(
            `${server.url}${path}`,
            {
              headers: acceptEncoding
                ? { "Accept-Encoding": acceptEncoding }
                : {},
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on("data", (c: Buffer) => chunks.push(c));
              res.on("end", () =>
                resolve({ headers: res.headers, body: Buffer.concat(chunks) }),
              );
            },
          )
          .on("error", reject);
      },
    );
  }

  it("sends a page as gzip to a browser that takes it (compressed whole, 0833, 0836), brotli or nothing to others", async () => {
    const chrome = await raw("/auth", "gzip, deflate, br, zstd");
    expect(chrome.headers["content-encoding"]).toBe("gzip");
    expect(chrome.headers.vary).toBe("Accept-Encoding");
    const page = zlib.gunzipSync(chrome.body).toString();
    expect(page).toMatch(/^<!DOCTYPE html>/);
    expect(page).toMatch(/<\/html>$/);

    const gzip = await raw("/auth", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString()).toMatch(/<\/html>$/);

    // Only brotli: the middleware streams it, as before docs/decisions/archive/0833-pages-compressed-whole.md.
    const brOnly = await raw("/auth", "br");
    expect(brOnly.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(brOnly.body).toString()).toMatch(
      /<\/html>$/,
    );

    const none = await raw("/auth");
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(none.body.toString()).toMatch(/<\/html>$/);
  });

  it("still compresses what is not a page (the middleware's own work)", async () => {
    const feed = await raw("/help/fees.data", "gzip, deflate, br, zstd");
    expect(feed.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(feed.body).length).toBeGreaterThan(0);
  });
});

describe("cross-site requests that change state", () => {
  const writes = [
    ...appRoutes.filter((r) => !r.api && r.hasAction),
    ...appRoutes.filter(
      (r) =>
        r.api &&
        // Calls whose authority is a signature, not a session (Stripe's
        // webhook, a mail's one-click unsubscribe) come from other sites.
        !API_CALLS.some((c) => c.route === r.path && c.rawBody) &&
        API_CALLS.some(
          (c) =>
            c.route === r.path &&
            ["POST", "PUT", "PATCH", "DELETE"].includes(c.method),
        ),
    ),
  ];
  const attacks: [string, Record<string, string>][] = [
    ["Origin of another site", { Origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["Origin: null (sandboxed frame)", { Origin: "null" }],
    ["a look-alike origin", { Origin: "http://localhost.evil.example" }],
  ];

  it.each(writes.map((r) => [r.path, r] as const))(
    "%s is refused (403) and changes nothing",
    async (_p, route) => {
      const p = realPath(route);
      const before = await me.client.get(`/api/bets/${bets.pending!.id}`);
      const myBets = await me.client.get("/api/user/bets/created");
      expect(before.status).toBe(200);
      for (const [name, headers] of attacks) {
        const res = route.api
          ? await me.client.request(
              API_CALLS.find(
                (c) => c.route === route.path && c.method !== "GET",
              )!.method,
              p,
              { json: {}, headers },
            )
          : await me.client.request("POST", p, {
              body: "intent=join&title=Evil&description=Evil%20bet&amount=5",
              headers: {
                ...headers,
                "Content-Type": "application/x-www-form-urlencoded",
              },
            });
        expect(res.status, `${name} → ${p}`).toBe(403);
        expect(res.text).toContain("Cross-site requests are not allowed");
      }
      // Still signed in, the bet untouched, no bet created.
      expect(
        (await me.client.get(`/api/bets/${bets.pending!.id}`)).data,
      ).toEqual(before.data);
      expect((await me.client.get("/api/user/bets/created")).data).toEqual(
        myBets.data,
      );
    },
  );

  it("lets the same origin through", async () => {
    const res = await me.client.request("POST", "/api/bets", {
      json: {},
      headers: { Origin: server.url, "Sec-Fetch-Site": "same-origin" },
    });
    expect(res.status).toBe(400);
  });
});

describe("abuse limits shared by every process on one database", () => {
  // Two servers on one database: what two worker processes, or two
  // machines on one database, are to each other.
  const env = { RATE_LIMITS: "on", TRUST_PROXY: "Fly-Client-IP" };
  // One after the other: the first migrates and seeds, the second joins it.
  const first = useServer(env);
  const second = useServer(() => ({ ...env, ...first.databaseEnv }));

  it("sign-in attempts split over two servers reach 429 where one server would", async () => {
    const ip = "203.0.113.77";
    const login = (url: string) =>
      new Client(url).request("POST", "/api/login", {
        json: { username: uniqueName("nobody"), password: "wrong-password" },
        headers: { "Fly-Client-IP": ip },
      });
    for (let i = 0; i < 10; i += 1) {
      const res = await login(i % 2 === 0 ? first.url : second.url);
      expect(res.status).toBe(401);
    }
    expect((await login(first.url)).status).toBe(429);
    expect((await login(second.url)).status).toBe(429);
  });

  it("one account's failed sign-ins split over two servers slow it down on both", async () => {
    const name = uniqueName("target");
    const guess = (url: string, i: number) =>
      new Client(url).request("POST", "/api/login", {
        json: { username: name, password: `guess-${i}` },
        // A new address each time: only the per-account delay applies.
        headers: { "Fly-Client-IP": `198.51.100.${100 + i}` },
      });
    // Four free failures and a fifth that starts the delay, alternately on
    // each server: each has seen at most three of them itself.
    for (let i = 0; i < 5; i += 1)
      expect(
        (await guess(i % 2 === 0 ? first.url : second.url, i)).status,
      ).toBe(401);
    for (const url of [second.url, first.url]) {
      const held = await guess(url, 9);
      expect(held.status, held.text).toBe(429);
      expect(held.data.error).toMatch(/Too many failed attempts/);
      expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });
});

describe("sign-in limits (RATE_LIMITS on)", () => {
  const limited = useServer({
    RATE_LIMITS: "on",
    TRUST_PROXY: "Fly-Client-IP",
  });

  const login = (
    url: string,
    ip: string,
    username: string,
    password = "wrong-password",
  ) =>
    new Client(url).request("POST", "/api/login", {
      json: { username, password },
      headers: { "Fly-Client-IP": ip },
    });

  it("answers the 11th attempt in a minute from one address with 429; another address is unaffected", async () => {
    const ip = "203.0.113.7";
    for (let i = 0; i < 10; i += 1) {
      // A different name each time: the per-account delay stays out of it.
      const res = await login(limited.url, ip, uniqueName("nobody"));
      expect(res.status).toBe(401);
    }
    const eleventh = await login(limited.url, ip, uniqueName("nobody"));
    expect(eleventh.status).toBe(429);
    expect(eleventh.data.error).toMatch(/Too many attempts/);
    // The HTML form shares the limit: no second door around it.
    const form = await new Client(limited.url).request("POST", "/auth", {
      body: "intent=login&username=x&password=y",
      headers: {
        "Fly-Client-IP": ip,
        "Content-Type": "application/x-www-form-urlencoded",
      },
    });
    expect(form.status).toBe(429);
    expect(form.text).toContain("Too many attempts");
    const register = await new Client(limited.url).request(
      "POST",
      "/api/register",
      {
        json: {},
        headers: { "Fly-Client-IP": ip },
      },
    );
    expect(register.status).toBe(429);
    const elsewhere = await login(
      limited.url,
      "198.51.100.9",
      uniqueName("nobody"),
    );
    expect(elsewhere.status).toBe(401);
  });

  it("a refused keyed request frees its key though the refusal counted against a limit", async () => {
    const me = await signUp(limited.url);
    const k = "email-change-1";
    const send = (currentPassword: string) =>
      me.client.request("PATCH", "/api/user/profile", {
        json: {
          email: `moved-${me.user.username}@example.com`,
          currentPassword,
        },
        headers: { "Idempotency-Key": k },
      });
    expect((await send("wrong-password")).status).toBe(400);
    // Corrected under the same key: counting the wrong try changed nothing
    // the key answers for, so this is a new request, not 422.
    const fixed = await send("secret123");
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("slows an account after repeated failures, the same for an unknown name, and never locks it out", async () => {
    const name = uniqueName("victim");
    const reg = await new Client(limited.url).request("POST", "/api/register", {
      json: {
        username: name,
        email: `${name}@example.com`,
        password: "secret123",
      },
      headers: { "Fly-Client-IP": "192.0.2.200" },
    });
    expect(reg.status).toBe(201);
    const ghost = uniqueName("ghost");
    let ip = 0;
    const next = () => `192.0.2.${(ip += 1)}`;
    // Five failures each (a fresh address each time: only the account counts).
    for (let i = 0; i < 5; i += 1) {
      const real = await login(limited.url, next(), name);
      const unknown = await login(limited.url, next(), ghost);
      expect(real.status).toBe(401);
      expect(unknown.status).toBe(real.status);
      expect(unknown.data).toEqual(real.data);
    }
    // Now even the right password waits; an unknown name answers the same.
    const early = await login(limited.url, next(), name, "secret123");
    const earlyGhost = await login(limited.url, next(), ghost, "secret123");
    expect(early.status).toBe(429);
    expect(early.headers.get("retry-after")).toBe("1");
    expect(earlyGhost.status).toBe(early.status);
    expect(earlyGhost.data).toEqual(early.data);
    expect(earlyGhost.headers.get("retry-after")).toBe(
      early.headers.get("retry-after"),
    );
    // Someone else's account is not slowed by it.
    const other = await login(limited.url, next(), uniqueName("bystander"));
    expect(other.status).toBe(401);
    // Once the delay passes, the right password works: no lock-out.
    await new Promise((r) => setTimeout(r, 1_100));
    const later = await login(limited.url, next(), name, "secret123");
    expect(later.status).toBe(200);
    expect(later.data.username).toBe(name);
  });
});
