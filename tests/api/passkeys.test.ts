// Passkeys (docs/product-rules.md#passkeys), what the server holds to: a
// challenge used once, bound to the browser that asked and alive five
// minutes; the site's own origin; user verification required; a counter
// that goes backwards refused and mailed; the password's sign-in limits; a
// closed account refused and its passkeys gone; the export lists them; a
// passkey never on two accounts; at most 10. The passkeys are built by
// hand (tests/support/webauthn.ts): an ES256 key and a 'none' attestation.
import { describe, expect, it } from "vitest";
import { useServer, useServers, useSmtp } from "../support/use-server";
import { Client, signUp, uniqueName } from "../support/server";
import { TestPasskey } from "../support/webauthn";
import { queryServerDatabase } from "../support/server-database";

const ORIGIN = "https://fairshake.test";
const ADDRESS_HEADER = "X-Test-Client-Address";
const EXPIRED = "This passkey request has expired. Please try again.";
const NOT_VERIFIED = "This passkey could not be verified.";
const UNKNOWN = "This passkey is not registered here.";
const COUNTER_SUBJECT = "A Fairshake passkey sign-in was refused";

const smtp = useSmtp();
// `server`: limits off. `limited`: limits on, the client address from a test header.
const [server, limited] = useServers(
  () => ({ SMTP_URL: smtp.url, PUBLIC_ORIGIN: ORIGIN }),
  () => ({
    SMTP_URL: smtp.url,
    PUBLIC_ORIGIN: ORIGIN,
    RATE_LIMITS: "on",
    TRUST_PROXY: ADDRESS_HEADER,
  }),
);

type Person = { client: Client; username: string; email: string };

async function person(url = server.url): Promise<Person> {
  const username = uniqueName("pk");
  const { client } = await signUp(url, username);
  return { client, username, email: `${username}@example.com` };
}

/** Adds a passkey the way the Security page does: options, then the answer. */
async function addPasskey(
  who: Person,
  passkey = new TestPasskey(ORIGIN),
  name = "Phone",
) {
  const options = await who.client.post("/api/user/passkeys/options", {});
  expect(options.status, options.text).toBe(200);
  const res = await who.client.post("/api/user/passkeys", {
    response: passkey.register(options.data.options),
    name,
  });
  expect(res.status, res.text).toBe(201);
  return passkey;
}

/** A fresh browser's sign-in with `passkey`: options, then the signed answer. */
async function signInWith(
  passkey: TestPasskey,
  {
    url = server.url,
    client = new Client(url),
    bend = {},
    headers = {},
    returnTo,
  }: {
    url?: string;
    client?: Client;
    bend?: Parameters<TestPasskey["signIn"]>[1];
    headers?: Record<string, string>;
    returnTo?: string;
  } = {},
) {
  const options = await client.request(
    "POST",
    "/api/passkeys/sign-in/options",
    {
      json: {},
      headers,
    },
  );
  expect(options.status, options.text).toBe(200);
  const res = await client.request("POST", "/api/passkeys/sign-in", {
    json: { response: passkey.signIn(options.data.options, bend), returnTo },
    headers,
  });
  return { client, res, options: options.data.options };
}

describe("adding and signing in", () => {
  it("adds a passkey, signs in with it into an ordinary session, and the counter moves", async () => {
    const who = await person();
    const passkey = await addPasskey(who);
    const list = await who.client.get("/api/user/passkeys");
    expect(list.data).toEqual([
      expect.objectContaining({ name: "Phone", lastUsedAt: null }),
    ]);

    const { client, res } = await signInWith(passkey, {
      returnTo: "/my-bets",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data.user.username).toBe(who.username);
    expect(res.data.redirectTo).toBe("/my-bets");
    const me = await client.get("/api/user");
    expect(me.status).toBe(200);
    expect(me.data.username).toBe(who.username);
    // An ordinary session: listed beside the others.
    const sessions = await client.get("/api/user/sessions");
    expect(sessions.data).toHaveLength(2);

    const after = await who.client.get("/api/user/passkeys");
    expect(after.data[0].lastUsedAt).not.toBeNull();
    // Again, with the next count: the counter moved forwards.
    expect(passkey.counter).toBe(1);
    const again = await signInWith(passkey);
    expect(again.res.status, again.res.text).toBe(200);
    expect(passkey.counter).toBe(2);
  });

  it("names, renames and removes; a removed passkey signs in no more", async () => {
    const who = await person();
    const passkey = await addPasskey(who);
    const [{ id }] = (await who.client.get("/api/user/passkeys")).data;
    const renamed = await who.client.patch(`/api/user/passkeys/${id}`, {
      name: "  Laptop ",
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.data.name).toBe("Laptop");
    const other = await person();
    expect((await other.client.delete(`/api/user/passkeys/${id}`)).status).toBe(
      404,
    );
    expect((await who.client.delete(`/api/user/passkeys/${id}`)).status).toBe(
      204,
    );
    const { res } = await signInWith(passkey);
    expect(res.status).toBe(401);
    expect(res.data.error).toBe(UNKNOWN);
  });

  it("needs the right password when one is given", async () => {
    const who = await person();
    const res = await who.client.post("/api/user/passkeys/options", {
      password: "wrong-one",
    });
    expect(res.status).toBe(400);
    expect(res.data.fieldErrors.password).toBeDefined();
    const ok = await who.client.post("/api/user/passkeys/options", {
      password: "secret123",
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.data.options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    expect(ok.data.options.rp.id).toBe("fairshake.test");
  });

  it("needs the password more than 10 minutes after signing in", async () => {
    const who = await person();
    const me = (await who.client.get("/api/user")).data as { id: number };
    // This session began 11 minutes ago.
    await queryServerDatabase(
      server.databaseEnv,
      "UPDATE sessions SET created_at = ? WHERE user_id = ?",
      [Date.now() - 11 * 60_000, me.id],
    );
    const bare = await who.client.post("/api/user/passkeys/options", {});
    expect(bare.status).toBe(400);
    expect(bare.data.fieldErrors.password).toEqual([
      "Enter your password to add a passkey (or sign in again).",
    ]);
    const withPassword = await who.client.post("/api/user/passkeys/options", {
      password: "secret123",
    });
    expect(withPassword.status, withPassword.text).toBe(200);
  });

  it("holds at most 10 passkeys", async () => {
    const who = await person();
    for (let i = 0; i < 10; i++) await addPasskey(who);
    const res = await who.client.post("/api/user/passkeys/options", {});
    expect(res.status).toBe(409);
  });

  it("never registers one passkey to two accounts", async () => {
    const one = await person();
    const two = await person();
    const passkey = await addPasskey(one);
    const options = await two.client.post("/api/user/passkeys/options", {});
    const res = await two.client.post("/api/user/passkeys", {
      response: passkey.register(options.data.options),
    });
    expect(res.status).toBe(409);
    expect(res.data.error).toBe("This passkey is already registered.");
  });
});

describe("challenges", () => {
  it("refuses a replayed challenge, even with its cookie put back", async () => {
    const who = await person();
    const passkey = await addPasskey(who);
    const asker = new Client(server.url);
    const options = (await asker.post("/api/passkeys/sign-in/options", {})).data
      .options;
    const cookie = asker.cookieHeader;
    const first = await asker.post("/api/passkeys/sign-in", {
      response: passkey.signIn(options),
    });
    expect(first.status, first.text).toBe(200);
    // The same challenge and cookie again, with a good signature and the next count.
    const replay = await new Client(server.url).request(
      "POST",
      "/api/passkeys/sign-in",
      {
        json: { response: passkey.signIn(options) },
        headers: { Cookie: cookie },
      },
    );
    expect(replay.status).toBe(400);
    expect(replay.data.error).toBe(EXPIRED);
    // An answer to an old challenge, sent with a fresh one's cookie.
    const other = new Client(server.url);
    expect((await other.post("/api/passkeys/sign-in/options", {})).status).toBe(
      200,
    );
    const stale = await other.post("/api/passkeys/sign-in", {
      response: passkey.signIn(options),
    });
    expect(stale.status).toBe(401);
  });

  it("binds a challenge to the browser that asked", async () => {
    const who = await person();
    const passkey = await addPasskey(who);
    const asker = new Client(server.url);
    const options = (await asker.post("/api/passkeys/sign-in/options", {})).data
      .options;
    // Another browser, without the asker's cookie.
    const res = await new Client(server.url).post("/api/passkeys/sign-in", {
      response: passkey.signIn(options),
    });
    expect(res.status).toBe(400);
    expect(res.data.error).toBe(EXPIRED);
  });

  describe("five minutes (shortened)", () => {
    const short = useServer(() => ({
      ...server.databaseEnv,
      PUBLIC_ORIGIN: ORIGIN,
      PASSKEY_CHALLENGE_TTL_S: "0.001",
    }));

    it("refuses an expired challenge, adding or signing in", async () => {
      const who = await person(short.url);
      const options = await who.client.post("/api/user/passkeys/options", {});
      expect(options.status, options.text).toBe(200);
      const passkey = new TestPasskey(ORIGIN);
      const res = await who.client.post("/api/user/passkeys", {
        response: passkey.register(options.data.options),
      });
      expect(res.status).toBe(400);
      expect(res.data.error).toBe(EXPIRED);

      // A passkey added on the five-minute server, on the same database.
      const owner = await person();
      const known = await addPasskey(owner);
      const { res: signIn } = await signInWith(known, { url: short.url });
      expect(signIn.status).toBe(400);
      expect(signIn.data.error).toBe(EXPIRED);
    });
  });
});

describe("the answer itself", () => {
  it("refuses another origin, adding or signing in", async () => {
    const who = await person();
    const options = await who.client.post("/api/user/passkeys/options", {});
    const phished = await who.client.post("/api/user/passkeys", {
      response: new TestPasskey(ORIGIN).register(options.data.options, {
        origin: "https://fairshake.example",
      }),
    });
    expect(phished.status).toBe(400);
    expect(phished.data.error).toBe(NOT_VERIFIED);

    const passkey = await addPasskey(who);
    const { res } = await signInWith(passkey, {
      bend: { origin: "https://fairshake.example" },
    });
    expect(res.status).toBe(401);
    expect(res.data.error).toBe(NOT_VERIFIED);
    const otherRp = await signInWith(passkey, {
      bend: { rpID: "fairshake.example" },
    });
    expect(otherRp.res.status).toBe(401);
  });

  it("requires user verification, adding or signing in", async () => {
    const who = await person();
    const options = await who.client.post("/api/user/passkeys/options", {});
    const unverified = await who.client.post("/api/user/passkeys", {
      response: new TestPasskey(ORIGIN).register(options.data.options, {
        userVerified: false,
      }),
    });
    expect(unverified.status).toBe(400);

    const passkey = await addPasskey(who);
    const { res } = await signInWith(passkey, {
      bend: { userVerified: false },
    });
    expect(res.status).toBe(401);
    expect(res.data.error).toBe(NOT_VERIFIED);
  });

  it("refuses a counter that goes backwards and mails the person", async () => {
    const who = await person();
    const passkey = await addPasskey(who, undefined, "Work key");
    const ahead = await signInWith(passkey, { bend: { counter: 5 } });
    expect(ahead.res.status, ahead.res.text).toBe(200);
    const behind = await signInWith(passkey, { bend: { counter: 3 } });
    expect(behind.res.status).toBe(401);
    expect(behind.res.data.error).toBe(NOT_VERIFIED);
    const same = await signInWith(passkey, { bend: { counter: 5 } });
    expect(same.res.status).toBe(401);
    const mail = await smtp.waitFor(
      (m) => m.to === who.email && m.subject === COUNTER_SUBJECT,
    );
    expect(mail.text).toContain("Work key");
    // The next count goes through.
    const next = await signInWith(passkey, { bend: { counter: 6 } });
    expect(next.res.status, next.res.text).toBe(200);
  });
});

describe("the account", () => {
  it("lists passkeys in the export; closing deletes them and refuses the sign-in", async () => {
    const who = await person();
    const passkey = await addPasskey(who, undefined, "Tablet");
    const exported = await who.client.get("/api/user/export");
    expect(exported.data.passkeys).toEqual([
      {
        name: "Tablet",
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
    ]);
    expect(exported.text).not.toContain(passkey.id);
    const closed = await who.client.request("DELETE", "/api/user", {
      json: { password: "secret123" },
    });
    expect(closed.status, closed.text).toBe(204);
    const { res } = await signInWith(passkey);
    expect(res.status).toBe(401);
    expect(res.data.error).toBe(UNKNOWN);
  });
});

describe("limits shared with the password", () => {
  it("counts passkey sign-ins in the address's attempts", async () => {
    const who = await person(limited.url);
    const passkey = await addPasskey(who);
    const headers = { [ADDRESS_HEADER]: "203.0.113.51" };
    // Nine password attempts from the address (names of nobody, so no
    // account's delay counts), then the passkey's tenth.
    for (let i = 0; i < 9; i++) {
      const res = await new Client(limited.url).request("POST", "/api/login", {
        json: { username: uniqueName("nobody"), password: "wrong-pw" + i },
        headers: { [ADDRESS_HEADER]: "203.0.113.51" },
      });
      expect(res.status).not.toBe(429);
    }
    const tenth = await signInWith(passkey, { url: limited.url, headers });
    expect(tenth.res.status, tenth.res.text).toBe(200);
    const eleventh = await signInWith(passkey, { url: limited.url, headers });
    expect(eleventh.res.status).toBe(429);
  });

  it("holds a passkey sign-in back after the account's password failures", async () => {
    const who = await person(limited.url);
    const passkey = await addPasskey(who);
    for (let i = 0; i < 5; i++) {
      const res = await new Client(limited.url).request("POST", "/api/login", {
        json: { username: who.username, password: "wrong-pw" + i },
        headers: { [ADDRESS_HEADER]: `198.51.100.${i + 1}` },
      });
      expect(res.status).toBe(401);
    }
    const { res } = await signInWith(passkey, {
      url: limited.url,
      headers: { [ADDRESS_HEADER]: "198.51.100.99" },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).not.toBeNull();
  });
});
