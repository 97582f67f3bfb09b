import http from "node:http";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";
import { pngBomb, solidImage } from "../support/images";
import { postStreamed } from "../support/streaming";

const server = useServer();

const TWO_MB = 2 * 1024 * 1024;

describe("PATCH /api/user/profile", () => {
  it("updates the changed fields and answers the user (200)", async () => {
    const { client, user } = await signUp(server.url);
    const res = await client.patch("/api/user/profile", {
      username: `${user.username}x`,
      email: `${user.username}x@example.org`,
      avatarUrl: "https://example.com/me.png",
      currentPassword: "secret123",
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      id: user.id,
      username: `${user.username}x`,
      email: `${user.username}x@example.org`,
      avatarUrl: "https://example.com/me.png",
    });
    expect(res.text).not.toMatch(/hash|argon/i);
    const cleared = await client.patch("/api/user/profile", { avatarUrl: "" });
    expect(cleared.data.avatarUrl).toBeNull();
    // an empty body changes nothing
    const same = await client.patch("/api/user/profile", {});
    expect(same.status).toBe(200);
    expect(same.data.username).toBe(`${user.username}x`);
  });

  it("400 'Validation Error' with the product's field messages", async () => {
    const { client } = await signUp(server.url);
    const res = await client.patch("/api/user/profile", {
      username: "ab",
      email: "nope",
      avatarUrl: "not a url",
    });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({
      error: "Validation Error",
      fieldErrors: {
        username: ["Username must be at least 3 characters"],
        email: ["Please enter a valid email address"],
        avatarUrl: ["Please enter a valid URL"],
      },
    });
    const long = await client.patch("/api/user/profile", {
      username: "a".repeat(51),
    });
    expect(long.data.fieldErrors.username).toEqual([
      "Username must be less than 50 characters",
    ]);
    const wrongType = await client.patch("/api/user/profile", { email: 42 });
    expect(wrongType.status).toBe(400);
  });

  it("409 when the username or email is taken", async () => {
    const other = await signUp(server.url);
    const { client } = await signUp(server.url);
    const name = await client.patch("/api/user/profile", {
      username: other.user.username.toUpperCase(),
    });
    expect(name.status).toBe(409);
    expect(name.data.error).toBe("Username already taken");
    const email = await client.patch("/api/user/profile", {
      email: `${other.user.username}@example.com`,
      currentPassword: "secret123",
    });
    expect(email.status).toBe(409);
    expect(email.data.error).toBe("Email already registered");
  });

  it("401 without a session, 415 without JSON, 405 for other methods", async () => {
    const anon = new Client(server.url);
    expect((await anon.patch("/api/user/profile", {})).status).toBe(401);
    const { client } = await signUp(server.url);
    const form = await client.request("PATCH", "/api/user/profile", {
      body: "username=abc",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    expect((await client.post("/api/user/profile", {})).status).toBe(405);
  });
});

describe("POST /api/user/payment-methods", () => {
  it("sets the flag to the state sent (200 user)", async () => {
    const { client } = await signUp(server.url);
    const on = await client.post("/api/user/payment-methods", {
      method: "paypal",
      connected: true,
    });
    expect(on.status).toBe(200);
    expect(on.data.paymentMethods.paypalConnected).toBe(true);
    expect(on.data.paymentMethods.cardConnected).toBe(false);
    const off = await client.post("/api/user/payment-methods", {
      method: "paypal",
      connected: false,
    });
    expect(off.data.paymentMethods.paypalConnected).toBe(false);
  });

  it("400 unknown method or missing state; 401 without a session", async () => {
    const { client } = await signUp(server.url);
    const unknown = await client.post("/api/user/payment-methods", {
      method: "bitcoin",
      connected: true,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.data.error).toBe("Unknown payment method");
    const missing = await client.post("/api/user/payment-methods", {
      method: "card",
    });
    expect(missing.status).toBe(400);
    expect(missing.data.fieldErrors.connected).toEqual([
      "connected must be true or false",
    ]);
    const anon = new Client(server.url);
    expect(
      (
        await anon.post("/api/user/payment-methods", {
          method: "card",
          connected: true,
        })
      ).status,
    ).toBe(401);
  });
});

function upload(client: Client, bytes: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.append("avatar", new Blob([new Uint8Array(bytes)], { type }), name);
  return client.request("POST", "/profile/edit", {
    body: form,
    headers: { Accept: "text/html" },
  });
}

describe("avatar upload (POST /profile/edit, multipart)", () => {
  it("re-encodes a PNG to a 256×256 WebP served with an ETag", async () => {
    const { client, user } = await signUp(server.url);
    const res = await upload(
      client,
      await solidImage(800, 600),
      "me.png",
      "image/png",
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/profile");
    const me = await client.get("/api/user");
    expect(me.data.avatarUrl).toMatch(new RegExp(`^/avatars/${user.id}\\?v=`));
    const image = await fetch(server.url + me.data.avatarUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/webp");
    expect(image.headers.get("Cache-Control")).toContain("immutable");
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 256, 256]);
    const etag = image.headers.get("ETag")!;
    const again = await fetch(server.url + me.data.avatarUrl, {
      headers: { "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
  });

  it("accepts a JPEG", async () => {
    const { client } = await signUp(server.url);
    const res = await upload(
      client,
      await solidImage(300, 300, "jpeg"),
      "me.jpg",
      "image/jpeg",
    );
    expect(res.status).toBe(302);
    expect((await client.get("/api/user")).data.avatarUrl).toMatch(
      /^\/avatars\//,
    );
  });

  it("refuses a 2 MB + 1 byte image before reading the body (413)", async () => {
    const { client } = await signUp(server.url);
    const boundary = "----fairshake-test";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const total = head.length + TWO_MB + 1 + tail.length;
    // Send only the first bytes and wait: the answer must come without the rest.
    const result = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const url = new URL("/profile/edit", server.url);
        const req = http.request(
          url,
          {
            method: "POST",
            headers: {
              "Content-Type": `multipart/form-data; boundary=${boundary}`,
              "Content-Length": String(total),
              Cookie: client.cookieHeader,
            },
          },
          (res) => {
            let body = "";
            res.on("data", (c) => (body += c));
            res.on("end", () => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, body });
            });
          },
        );
        req.on("error", reject);
        req.write(head);
        req.write(Buffer.alloc(1024, 0x89));
      },
    );
    expect(result.status).toBe(413);
    expect(result.body).toContain("larger than 2 MB");
    expect((await client.get("/api/user")).data.avatarUrl).toBeNull();
  });

  it("refuses an oversized body without a Content-Length (counted while streaming)", async () => {
    const { client } = await signUp(server.url);
    const boundary = "----fairshake-chunked";
    const result = await postStreamed(server.url, "/profile/edit", {
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        Cookie: client.cookieHeader,
      },
      first: `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
      fill: 0x89,
      sentLimit: 16 * TWO_MB,
    });
    expect(result.status).toBe(413);
    expect(result.body).toContain("larger than 2 MB");
  });

  it("refuses a renamed non-image by its bytes (400)", async () => {
    const { client } = await signUp(server.url);
    const res = await upload(
      client,
      new TextEncoder().encode("<svg onload=alert(1)>not really a png</svg>"),
      "cat.png",
      "image/png",
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain("Please choose a PNG, JPEG, WebP or GIF image.");
    expect((await client.get("/api/user")).data.avatarUrl).toBeNull();
  });

  it("refuses an image with a huge pixel count (400)", async () => {
    const { client } = await signUp(server.url);
    const res = await upload(client, pngBomb(), "bomb.png", "image/png");
    expect(res.status).toBe(400);
    expect(res.text).toContain("too many pixels");
  });

  it("sends a visitor to /auth", async () => {
    const anon = new Client(server.url);
    const res = await upload(
      anon,
      await solidImage(10, 10),
      "a.png",
      "image/png",
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/auth/);
  });

  it("404 for a user without an uploaded avatar", async () => {
    expect((await fetch(server.url + "/avatars/999999")).status).toBe(404);
    expect((await fetch(server.url + "/avatars/abc")).status).toBe(404);
  });
});
