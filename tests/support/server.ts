// Starts the built production server (build/app-server.js) on a free port
// with its own fresh database, for API tests over real HTTP: the same
// Express middleware, headers and limits that ship.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { freshDatabaseEnv } from "./test-database";

export type TestServer = {
  url: string;
  dbPath: string;
  /** What points another process at this server's database (either engine). */
  databaseEnv: Record<string, string>;
  stop: () => Promise<void>;
  /** SIGKILL: the process dies mid-whatever, as on a lost machine. */
  kill: () => Promise<void>;
  /** Whether the process still runs (a test that a fault did not end it). */
  running: () => boolean;
  /** What the process wrote to stdout and stderr so far. */
  output: () => string;
  /** The exit code once it has exited by itself, else null. */
  exitCode: () => number | null;
};

export async function startServer(
  env: Record<string, string> = {},
): Promise<TestServer> {
  if (!fs.existsSync("build/app-server.js")) {
    throw new Error(
      "Run `npm run build` first: API tests use the production build.",
    );
  }
  // A server asked to share another's database gets its env; otherwise a fresh one.
  const shared =
    env.DATABASE_PATH !== undefined || env.DATABASE_URL !== undefined;
  const fresh = shared ? null : await freshDatabaseEnv();
  const dir =
    fresh?.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-api-"));
  const databaseEnv = fresh?.env ?? {
    ...(env.DATABASE_PATH ? { DATABASE_PATH: env.DATABASE_PATH } : {}),
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
  };
  const dbPath = databaseEnv.DATABASE_PATH ?? path.join(dir, "api.db");
  const child: ChildProcess = spawn(process.execPath, ["build/app-server.js"], {
    env: {
      ...process.env,
      // The server is a real server, not a module under test: its
      // background work (sweep, outbox) runs as in production.
      VITEST: "",
      NODE_ENV: "production",
      PORT: "0",
      ...databaseEnv,
      RATE_LIMITS: "off",
      DEMO_MODE: "1",
      SESSION_SECRET: "test-secret",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${output}`)),
      // Generous: on a busy two-core machine a start that migrates can be slow.
      45_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (c: Buffer) => {
      output += c.toString();
      // SERVER_LOGS=1 shows what a test's server said (a crash's stack).
      if (process.env.SERVER_LOGS === "1") process.stderr.write(c);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dbPath,
    databaseEnv,
    running: () => child.exitCode === null && child.signalCode === null,
    output: () => output,
    exitCode: () => child.exitCode,
    stop: () =>
      new Promise((resolve) => {
        // Killed earlier (a test's lost machine): nothing left to stop.
        if (child.exitCode !== null || child.signalCode !== null) {
          fs.rmSync(dir, { recursive: true, force: true });
          return resolve();
        }
        child.removeAllListeners("exit");
        child.once("exit", () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
    kill: () =>
      new Promise((resolve) => {
        child.removeAllListeners("exit");
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/** A tiny HTTP client with a cookie jar: one per simulated person. */
export class Client {
  private cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  get cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(
    method: string,
    urlPath: string,
    init: {
      json?: unknown;
      body?: BodyInit;
      headers?: Record<string, string>;
    } = {},
  ) {
    const headers: Record<string, string> = {
      Accept: "application/json",
      ...init.headers,
    };
    let body = init.body;
    if (init.json !== undefined) {
      headers["Content-Type"] ??= "application/json";
      body = JSON.stringify(init.json);
    } else if (
      method !== "GET" &&
      method !== "HEAD" &&
      body === undefined &&
      !("Content-Type" in headers)
    ) {
      // State-changing API calls always declare JSON, even with no body.
      headers["Content-Type"] = "application/json";
    }
    if (this.cookies.size) headers.Cookie = this.cookieHeader;
    const send = () =>
      fetch(this.baseUrl + urlPath, {
        method,
        headers,
        body,
        redirect: "manual",
      });
    // A pooled keep-alive socket the server closed just as it was reused
    // fails before the request reaches the server: that, and only that, is
    // sent once more, and only for a read. A POST is never sent twice: a
    // reset there may be the very socket bug a test is looking for.
    const idempotent = method === "GET" || method === "HEAD";
    const res = await send().catch((error: { cause?: { code?: string } }) => {
      if (idempotent && error.cause?.code === "ECONNRESET") return send();
      throw error;
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    return {
      status: res.status,
      headers: res.headers,
      data: data as any,
      text,
    };
  }

  get(p: string, headers?: Record<string, string>) {
    return this.request("GET", p, { headers });
  }
  post(p: string, json?: unknown) {
    return this.request("POST", p, json === undefined ? {} : { json });
  }
  put(p: string, json?: unknown) {
    return this.request("PUT", p, json === undefined ? {} : { json });
  }
  patch(p: string, json?: unknown) {
    return this.request("PATCH", p, json === undefined ? {} : { json });
  }
  delete(p: string) {
    return this.request("DELETE", p);
  }
}

let counter = 0;
/**
 * A unique, valid username for this test run. The counter keeps names
 * readable; the random part keeps them apart across files and workers that
 * share a database. (Pid, counter and a number up to 999 run together once
 * made two names alike, "…x1" + "23" and "…x12" + "3": a sign-up got 409.)
 */
export function uniqueName(prefix = "user") {
  counter += 1;
  return `${prefix}${counter}_${randomBytes(5).toString("hex")}`;
}

/** Registers a fresh user and returns a signed-in client. */
export async function signUp(baseUrl: string, name = uniqueName()) {
  const client = new Client(baseUrl);
  const res = await client.post("/api/register", {
    username: name,
    email: `${name}@example.com`,
    password: "secret123",
  });
  if (res.status !== 201)
    throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { client, user: res.data as { id: number; username: string } };
}
