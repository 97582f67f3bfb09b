// Shared by the storm and crash scripts: start the production server on a
// given database and talk JSON to it as several people.
import { spawn } from "node:child_process";

/**
 * Starts the server; `port` 0 picks a free one, read back from its log.
 * `entry` build/server.js is the production launcher (workers, Litestream).
 */
export function startServer({
  dbPath,
  port = 0,
  env = {},
  // Workers need the launcher; one process is the server itself.
  entry = Number(env.WEB_CONCURRENCY ?? 1) > 1
    ? "build/server.js"
    : "build/app-server.js",
  detached = false,
}) {
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DEMO_MODE: "1",
      RATE_LIMITS: "off",
      SESSION_SECRET: "harness-secret",
      PORT: String(port),
      DATABASE_PATH: dbPath,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that Litestream and workers can be killed
    // with it: process.kill(-child.pid, "SIGKILL").
    detached,
  });
  let log = "";
  let started = false;
  child.stderr.on("data", (c) => (log += c));
  // With several workers, ready means all of them (the primary says so).
  const readyLine =
    Number(env.WEB_CONCURRENCY ?? 1) > 1
      ? /workers listening on (http:\/\/localhost:\d+)/
      : /listening on (http:\/\/localhost:\d+)/;
  const ready = new Promise((resolve, reject) => {
    child.stdout.on("data", (c) => {
      log += c;
      if (started) return; // request logs follow: stop scanning them
      const match = readyLine.exec(log);
      if (match) {
        started = true;
        resolve(match[1]);
      }
    });
    child.on("exit", (code, signal) =>
      reject(new Error(`server exited (${code ?? signal}):\n${log}`)),
    );
  });
  return { child, ready, log: () => log };
}

/** Points every person at the server's current address (it moves on restart). */
export function setBase(people, base) {
  for (const p of people) p.base = base;
}

export class Person {
  constructor(base) {
    this.base = base;
    this.cookie = "";
  }
  async call(method, path, body, headers = {}) {
    const res = await fetch(this.base + path, {
      method,
      headers: {
        "Content-Type": "application/json",
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...headers,
      },
      body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
    });
    const set = res.headers.getSetCookie?.()[0];
    if (set && !/Max-Age=0/i.test(set)) this.cookie = set.split(";")[0];
    const text = await res.text();
    let data;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    return {
      status: res.status,
      data,
      text,
      replayed: res.headers.get("Idempotent-Replayed") === "true",
    };
  }
  async register(username) {
    const r = await this.call("POST", "/api/register", {
      username,
      email: `${username}@example.com`,
      password: "secret123",
    });
    if (r.status !== 201)
      throw new Error(`register ${username}: ${r.status} ${r.text}`);
    this.id = r.data.id;
    return this;
  }
}

export function tomorrow() {
  return new Date(Date.now() + 86_400_000).toISOString();
}

/** Registers a fresh person (password "secret123") and returns their session cookie ("name=value"). */
export async function registerCookie(base, username) {
  const res = await fetch(`${base}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: "secret123",
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status}`);
  return res.headers.getSetCookie()[0].split(";")[0];
}

/**
 * Signs in on the demo seed and returns the session cookie ("name=value"),
 * or null when the server has no /api/login (the bench's bare app).
 */
export async function signInAs(base, username = "alice") {
  const login = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: "password123" }),
  });
  return (
    login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => /session=/.test(c)) ?? null
  );
}
