// What the server does with a body it did not read (server/unread-body.ts),
// seen from a raw socket so nothing in an HTTP client hides it: a short
// unread rest is drained and the connection carries the next request; a
// sender who streams on after a 413 without reading it is cut off, after
// an end of stream that follows the answer, not read forever.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";

const server = useServer();

function connect() {
  const { hostname, port } = new URL(server.url);
  const socket = net.connect(Number(port), hostname);
  let received = "";
  socket.setEncoding("latin1");
  socket.on("data", (c: string) => (received += c));
  const ended = new Promise<void>((resolve) => socket.once("end", resolve));
  const closed = new Promise<void>((resolve) =>
    socket.once("close", () => resolve()),
  );
  socket.on("error", () => {}); // a reset after the end is expected
  return { socket, received: () => received, ended, closed };
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i += 1)
    await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("a body the server did not read", () => {
  it("a short unread rest is drained: the same connection answers the next request", async () => {
    const { socket, received } = connect();
    const body = "username=" + "a".repeat(100 * 1024);
    // Refused before any route reads it (a cross-site form post: 403).
    socket.write(
      "POST /auth HTTP/1.1\r\nHost: localhost\r\n" +
        "Content-Type: application/x-www-form-urlencoded\r\n" +
        "Sec-Fetch-Site: cross-site\r\n" +
        `Content-Length: ${body.length}\r\n\r\n` +
        body,
    );
    await until(() => /^HTTP\/1\.1 403/.test(received()), "the 403");
    socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await until(
      () => (received().match(/HTTP\/1\.1 /g) ?? []).length === 2,
      "the second answer",
    );
    expect(received()).toMatch(/HTTP\/1\.1 200 OK/);
    socket.destroy();
  });

  it("a sender streaming on past a 413 it never reads gets an end of stream after the answer, and is cut off", async () => {
    const { socket, received, ended, closed } = connect();
    socket.write(
      "POST /auth HTTP/1.1\r\nHost: localhost\r\n" +
        "Content-Type: application/x-www-form-urlencoded\r\n" +
        "Transfer-Encoding: chunked\r\n\r\n",
    );
    const piece = Buffer.alloc(64 * 1024, 0x61);
    const chunk = Buffer.concat([
      Buffer.from(piece.length.toString(16) + "\r\n"),
      piece,
      Buffer.from("\r\n"),
    ]);
    let sent = 0;
    let stop = false;
    void closed.then(() => (stop = true));
    const pump = () => {
      while (!stop && sent < 256 * 1024 * 1024) {
        sent += piece.length;
        if (!socket.write(chunk)) {
          socket.once("drain", pump);
          return;
        }
      }
    };
    pump();
    await ended;
    expect(received()).toMatch(/^HTTP\/1\.1 413/);
    expect(received()).toContain("too large");
    await closed;
    // The form limit is 64 KB; what was sent beyond it sat in socket buffers
    // or in the bounded drain, never in a server reading on at our pace.
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });
});
