import crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { registerUser, verifyLogin, toUserJson } from "./user.server";
import {
  createSession,
  deleteExpiredSessions,
  findUserBySessionToken,
  lookUpSessionUser,
  revokeSessionToken,
  sessionHashOf,
  SESSION_TTL_MS,
} from "./session.server";
import { isDomainError } from "~/utils/errors";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

async function expectDomainError(
  promise: Promise<unknown>,
  status: number,
  message?: string,
) {
  try {
    await promise;
  } catch (error) {
    expect(isDomainError(error)).toBe(true);
    if (isDomainError(error)) {
      expect(error.status).toBe(status);
      if (message) expect(error.message).toBe(message);
    }
    return error;
  }
  throw new Error("expected a domain error");
}

describe("registerUser", () => {
  it("stores an argon2id hash (≥46 MiB), never the password", async () => {
    const user = await registerUser({
      username: "hasher",
      email: "hasher@example.com",
      password: "secret123",
    });
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=(\d+)/);
    const memory = Number(/m=(\d+)/.exec(user.passwordHash)![1]);
    expect(memory).toBeGreaterThanOrEqual(46 * 1024);
    expect(user.passwordHash).not.toContain("secret123");
    expect(JSON.stringify(toUserJson(user))).not.toContain("argon2");
  });

  it("refuses a username taken in any letter case and a taken email", async () => {
    await registerUser({
      username: "Unique1",
      email: "u1@example.com",
      password: "secret123",
    });
    await expectDomainError(
      registerUser({
        username: "unique1",
        email: "u2@example.com",
        password: "secret123",
      }),
      409,
      "Username already taken",
    );
    await expectDomainError(
      registerUser({
        username: "unique2",
        email: "U1@EXAMPLE.COM",
        password: "secret123",
      }),
      409,
      "Email already registered",
    );
  });

  it("gives the product's messages for each invalid field", async () => {
    const error = (await expectDomainError(
      registerUser({ username: "", email: "x", password: "1" }),
      400,
    )) as {
      fieldErrors: Record<string, string[]>;
    };
    expect(error.fieldErrors.username).toEqual(["Username is required"]);
    expect(error.fieldErrors.email).toEqual(["Email is invalid"]);
    expect(error.fieldErrors.password).toEqual([
      "Password must be at least 6 characters",
    ]);
  });

  it("verifies the right password only, whatever the username's case", async () => {
    await registerUser({
      username: "Checker",
      email: "checker@example.com",
      password: "secret123",
    });
    expect((await verifyLogin("checker", "secret123"))?.username).toBe(
      "Checker",
    );
    expect(await verifyLogin("checker", "wrong")).toBeNull();
    expect(await verifyLogin("nobody-here", "secret123")).toBeNull();
  });
});

describe("sessions", () => {
  it("creates, finds, revokes and expires sessions; the table holds only a hash", async () => {
    const user = await registerUser({
      username: "sessioner",
      email: "s@example.com",
      password: "secret123",
    });
    const { token } = await createSession(user.id);
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    expect((await findUserBySessionToken(token))?.id).toBe(user.id);
    const stored = (await sqlite
      .prepare("SELECT id_hash FROM sessions")
      .all()) as {
      id_hash: string;
    }[];
    expect(stored.some((r) => r.id_hash === token)).toBe(false);

    await revokeSessionToken(token);
    expect(await findUserBySessionToken(token)).toBeNull();

    const past = Date.now() - SESSION_TTL_MS - 1000;
    const { token: old } = await createSession(user.id, { now: past });
    expect(await findUserBySessionToken(old)).toBeNull();
    expect(await deleteExpiredSessions()).toBeGreaterThanOrEqual(1);
  });

  it("reads a request's session cookie once, however often the request asks; a forged one is no one", async () => {
    const user = await registerUser({
      username: "asker",
      email: "asker@example.com",
      password: "secret123",
    });
    const { setCookie } = await createSession(user.id);
    const cookie = setCookie.split(";")[0]!;
    const request = new Request("http://localhost/", {
      headers: { Cookie: cookie },
    });
    const hmac = vi.spyOn(crypto, "createHmac");
    const hash = vi.spyOn(crypto, "createHash");
    try {
      // The layout's header readings, the session step's lookup, again.
      const first = sessionHashOf(request);
      expect((await lookUpSessionUser(request))?.id).toBe(user.id);
      expect(sessionHashOf(request)).toBe(first);
      expect(hmac).toHaveBeenCalledTimes(1);
      expect(hash).toHaveBeenCalledTimes(1);
      // Another request with the same cookie checks it again.
      const again = new Request("http://localhost/", {
        headers: { Cookie: cookie },
      });
      expect(sessionHashOf(again)).toBe(first);
      expect(hmac).toHaveBeenCalledTimes(2);
    } finally {
      hmac.mockRestore();
      hash.mockRestore();
    }
    const [name, value] = cookie.split("=");
    const forged = new Request("http://localhost/", {
      headers: { Cookie: `${name}=${value!.slice(0, -2)}AA` },
    });
    expect(sessionHashOf(forged)).toBeNull();
    expect(await lookUpSessionUser(forged)).toBeNull();
  });

  it("lasts 30 days", async () => {
    const user = await registerUser({
      username: "longlived",
      email: "l@example.com",
      password: "secret123",
    });
    const now = Date.now();
    const { token } = await createSession(user.id, { now });
    expect(
      (await findUserBySessionToken(token, now + SESSION_TTL_MS - 1000))?.id,
    ).toBe(user.id);
    expect(
      await findUserBySessionToken(token, now + SESSION_TTL_MS + 1000),
    ).toBeNull();
  });
});
