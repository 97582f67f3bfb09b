// Every method Node's parser and Express accept (node:http's METHODS) is
// answered below 500 without a stack, and nothing is logged as an error.
// A method no route serves (TRACE, which the Fetch API cannot build a
// Request with and was a 500 with a stack in the log; the WebDAV ones, which
// React Router refused with a stack logged for each) is 405 with Allow
// before any route runs. CONNECT never reaches Express (Node answers it on
// the socket).
import http from "node:http";
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { signUp } from "../support/server";

const server = useServer();

function send(method: string, path: string, cookie = "") {
  return new Promise<{
    status: number;
    headers: http.IncomingHttpHeaders;
    text: string;
  }>((resolve, reject) => {
    const req = http.request(
      `${server.url}${path}`,
      {
        method,
        headers: { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const PATHS = [
  "/",
  "/auth",
  "/bet/1",
  "/api/bets",
  "/api/user",
  "/assets/none.js",
  "/no-such-page",
];
const METHODS = http.METHODS.filter((m) => m !== "CONNECT");

describe("every method Express accepts", () => {
  it.each(["TRACE", "PROPFIND", "M-SEARCH"])(
    "%s is 405 with Allow, on a page and on the /api",
    async (method) => {
      const page = await send(method, "/bet/1");
      expect(page.status).toBe(405);
      expect(page.headers.allow).toBe(
        "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE",
      );
      expect(page.text).toBe("Method not allowed");
      const api = await send(method, "/api/bets");
      expect(api.status).toBe(405);
      expect(JSON.parse(api.text)).toEqual({ error: "Method not allowed" });
    },
  );

  it("is answered below 500, without a stack, and nothing is logged as an error", async () => {
    const { client } = await signUp(server.url);
    const before = server.output().length;
    const wrong: string[] = [];
    for (const method of METHODS)
      for (const path of PATHS)
        for (const cookie of path === "/" || path === "/api/bets"
          ? ["", client.cookieHeader]
          : [client.cookieHeader]) {
          const res = await send(method, path, cookie);
          if (res.status >= 500 || /at .*\.js:\d+/.test(res.text))
            wrong.push(
              `${method} ${path} ${res.status} ${res.text.slice(0, 80)}`,
            );
        }
    expect(wrong).toEqual([]);
    const log = server.output().slice(before);
    expect(log).not.toMatch(/TypeError|at .*\.js:\d+|"level":50/);
  });
});
