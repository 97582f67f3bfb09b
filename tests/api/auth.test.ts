import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp, uniqueName } from "../support/server";

const server = useServer();

describe("POST /api/register", () => {
  it("creates the user (201), signs them in, never returns the hash", async () => {
    const client = new Client(server.url);
    const name = uniqueName("reg");
    const res = await client.post("/api/register", {
      username: name,
      email: `${name}@example.com`,
      password: "secret123",
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      username: name,
      email: `${name}@example.com`,
      winCount: 0,
      lossCount: 0,
      avatarUrl: null,
    });
    expect(res.data.paymentMethods).toEqual({
      applePayConnected: false,
      googleWalletConnected: false,
      paypalConnected: false,
      venmoConnected: false,
      zelleConnected: false,
      cardConnected: false,
    });
    expect(res.text).not.toMatch(/password|hash|argon/i);
    const me = await client.get("/api/user");
    expect(me.status).toBe(200);
    expect(me.data.username).toBe(name);
  });

  it.each([
    [
      {},
      {
        username: ["Username is required"],
        email: ["Email is required"],
        password: ["Password is required"],
      },
    ],
    [
      { username: "ab", email: "a@b.co", password: "secret1" },
      { username: ["Username must be at least 3 characters"] },
    ],
    [
      { username: "a".repeat(51), email: "a@b.co", password: "secret1" },
      { username: ["Username must be less than 50 characters"] },
    ],
    [
      { username: "valid_name", email: "not-an-email", password: "secret1" },
      { email: ["Email is invalid"] },
    ],
    [
      { username: "valid_name", email: "a@b.co", password: "12345" },
      { password: ["Password must be at least 6 characters"] },
    ],
    [
      { username: 42, email: ["x"], password: null },
      { username: ["Username is required"] },
    ],
  ])(
    "refuses %j with 400 and the product's messages",
    async (body, expected) => {
      const res = await new Client(server.url).post("/api/register", body);
      expect(res.status).toBe(400);
      expect(typeof res.data.error).toBe("string");
      expect(res.data.fieldErrors).toMatchObject(expected);
    },
  );

  it("refuses a taken username (any case) and a taken email with 409", async () => {
    const name = uniqueName("dup");
    await signUp(server.url, name);
    const sameName = await new Client(server.url).post("/api/register", {
      username: name.toUpperCase(),
      email: `other-${name}@example.com`,
      password: "secret123",
    });
    expect(sameName.status).toBe(409);
    expect(sameName.data).toEqual({ error: "Username already taken" });
    const sameEmail = await new Client(server.url).post("/api/register", {
      username: `${name}b`,
      email: `${name}@EXAMPLE.com`,
      password: "secret123",
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.data).toEqual({ error: "Email already registered" });
  });
});

describe("POST /api/login", () => {
  it("signs in with the right password and rotates the session id", async () => {
    const name = uniqueName("login");
    const { client } = await signUp(server.url, name);
    const before = client.cookieHeader;
    const res = await client.post("/api/login", {
      username: name,
      password: "secret123",
    });
    expect(res.status).toBe(200);
    expect(res.data.username).toBe(name);
    expect(client.cookieHeader).not.toBe(before);
    // The old cookie no longer works.
    const stale = await new Client(server.url).get("/api/user", {
      Cookie: before,
    });
    expect(stale.status).toBe(401);
  });

  it("answers the same 401 for an unknown user and a wrong password", async () => {
    const name = uniqueName("login");
    await signUp(server.url, name);
    const wrong = await new Client(server.url).post("/api/login", {
      username: name,
      password: "wrong-pass",
    });
    const unknown = await new Client(server.url).post("/api/login", {
      username: `${name}zz`,
      password: "wrong-pass",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.data).toEqual({ error: "Invalid username or password" });
    expect(unknown.data).toEqual(wrong.data);
  });

  it("refuses missing fields with 400", async () => {
    const res = await new Client(server.url).post("/api/login", {});
    expect(res.status).toBe(400);
    expect(res.data.fieldErrors).toMatchObject({
      username: ["Username is required"],
      password: ["Password is required"],
    });
  });
});

describe("POST /api/logout and GET /api/user", () => {
  it("ends the session (204) so the cookie stops working", async () => {
    const { client } = await signUp(server.url);
    const cookie = client.cookieHeader;
    const res = await client.post("/api/logout");
    expect(res.status).toBe(204);
    expect((await client.get("/api/user")).status).toBe(401);
    expect(
      (await new Client(server.url).get("/api/user", { Cookie: cookie }))
        .status,
    ).toBe(401);
  });

  it("answers 401 without a session", async () => {
    const res = await new Client(server.url).get("/api/user");
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ error: "Authentication required" });
  });
});

describe("the API door", () => {
  it.each(["/api/login", "/api/register", "/api/logout"])(
    "refuses %s without a JSON content type (415), even empty",
    async (p) => {
      const client = new Client(server.url);
      const empty = await client.request("POST", p, {
        headers: { "Content-Type": "text/plain" },
      });
      expect(empty.status).toBe(415);
      const form = await client.request("POST", p, {
        body: "username=a&password=b",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
      expect(form.data).toEqual({
        error: "Content-Type must be application/json",
      });
    },
  );

  it("refuses a JSON body over 16 KB with 413, before parsing", async () => {
    const client = new Client(server.url);
    const big = `{"username":"${"a".repeat(16_384)}"}`;
    const res = await client.request("POST", "/api/login", {
      body: big,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(413);
    // Not even valid JSON: the size is refused first.
    const junk = await client.request("POST", "/api/register", {
      body: "{".repeat(20_000),
      headers: { "Content-Type": "application/json" },
    });
    expect(junk.status).toBe(413);
  });

  it("answers 400, not 500, for malformed JSON", async () => {
    const res = await new Client(server.url).request("POST", "/api/login", {
      body: "{nope",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
  });

  it("answers an unknown /api path with a JSON 404", async () => {
    const res = await new Client(server.url).get("/api/does-not-exist");
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ error: "Not found" });
  });

  it("refuses a cross-site POST", async () => {
    const res = await new Client(server.url).request("POST", "/api/login", {
      json: { username: "x", password: "y" },
      headers: { Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
  });
});

describe("pages", () => {
  it("redirects a visitor from a protected page to /auth with return_to", async () => {
    const res = await new Client(server.url).get("/?x=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth?return_to=%2F%3Fx%3D1");
  });

  it("redirects a signed-in user away from /auth", async () => {
    const { client } = await signUp(server.url);
    const res = await client.get("/auth");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });

  it("answers an unknown page with 404 Page Not Found", async () => {
    const res = await new Client(server.url).get("/no/such/page");
    expect(res.status).toBe(404);
    expect(res.text).toContain("404 Page Not Found");
  });

  it("ships no script on /auth and /help/fees", async () => {
    for (const p of [
      "/auth?tab=register",
      "/help/fees",
      "/help/fees?tab=calculator&amount=15",
    ]) {
      const res = await new Client(server.url).get(p);
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/<script/i);
      expect(res.text).not.toMatch(/modulepreload/i);
    }
    // The login form's one script: an inline line that loads the passkey
    // module only where the browser has WebAuthn (docs/product-rules.md#passkeys).
    const login = await new Client(server.url).get("/auth");
    expect(login.status).toBe(200);
    expect(login.text).not.toMatch(/modulepreload|<script\b[^>]*src=/i);
    const scripts = login.text.match(/<script\b[^>]*>[^<]*<\/script>/gi) ?? [];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(
      /^<script nonce="[^"]+">if\(window\.PublicKeyCredential\)import\("\/assets\/passkey-sign-in-[\w-]+\.js"\)<\/script>$/,
    );
  });

  it("computes the fee calculator on the server", async () => {
    const res = await new Client(server.url).get(
      "/help/fees?tab=calculator&amount=15",
    );
    expect(res.text).toContain("-$0.38");
    expect(res.text).toContain("$14.62");
    const bad = await new Client(server.url).get(
      "/help/fees?tab=calculator&amount=-3",
    );
    expect(bad.text).toContain("Please enter a valid bet amount");
  });

  it("sends an enforced CSP with a nonce and the other security headers", async () => {
    const res = await new Client(server.url).get("/auth");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBeTruthy();
    const https = await new Client(server.url).get("/healthz", {
      "X-Forwarded-Proto": "https",
    });
    expect(https.headers.get("strict-transport-security")).toMatch(
      /max-age=\d+/,
    );
  });

  it("answers the health check", async () => {
    const res = await new Client(server.url).get("/healthz");
    expect(res.status).toBe(200);
    expect(res.text).toBe("ok");
  });
});
