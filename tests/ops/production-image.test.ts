// The production image, proven without Docker (no Docker engine runs here):
// this does what the Dockerfile's runtime stage does, read from the
// Dockerfile itself — production dependencies only (`npm ci --omit=dev`)
// in a clean folder outside the project, the build and the files its COPY
// lines name copied in, its ENV and its CMD — then starts it on an empty
// database and checks that it migrates, answers /healthz, serves a
// signed-in page and a share image (satori, resvg and the font at run
// time), and stops gracefully on SIGTERM. A dev dependency imported at run
// time fails it: node_modules holds none, and the folder is outside the
// project, so nothing resolves into the project's own node_modules.
// (docs/decisions/1070-node-24-and-react-router-8.md)
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/server";

type Stage = { env: Record<string, string>; cmd: string[]; copies: string[] };

/** The runtime stage of the Dockerfile: its ENV, its CMD, what it copies from the context. */
function runtimeStage(dockerfile: string): Stage {
  const text = dockerfile.replace(/\\\n/g, " ");
  const stage = text.slice(text.lastIndexOf("\nFROM "));
  const env: Record<string, string> = {};
  for (const [, line] of stage.matchAll(/^ENV (.*)$/gm))
    for (const [, key, quoted, bare] of line!.matchAll(
      /(\w+)=(?:"([^"]*)"|(\S+))/g,
    ))
      env[key!] = quoted ?? bare!;
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(stage)![1]!) as string[];
  const copies = [...stage.matchAll(/^COPY (?!--from)(.*)$/gm)].map(
    ([, args]) =>
      args!
        .split(/\s+/)
        .filter((a) => a && !a.startsWith("--"))
        .at(0)!,
  );
  return { env, cmd, copies };
}

const stage = runtimeStage(fs.readFileSync("Dockerfile", "utf8"));
const app = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-image-"));
const data = path.join(app, "data");
let server: ChildProcess | undefined;
let output = "";
let url = "";

function copy(from: string) {
  fs.cpSync(from, path.join(app, from), { recursive: true });
}

beforeAll(async () => {
  if (!fs.existsSync("build/server.js"))
    throw new Error("Run `npm run build` first: this starts the build.");
  // The prod-deps stage: production dependencies from the lock file.
  for (const f of ["package.json", "package-lock.json", ".npmrc"]) copy(f);
  const ci = spawnSync(
    "npm",
    ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"],
    { cwd: app, encoding: "utf8", env: { ...process.env, NODE_ENV: "" } },
  );
  expect(ci.status, `${ci.stdout}\n${ci.stderr}`).toBe(0);
  // The runtime stage: the build, then what its COPY lines name.
  copy("build");
  for (const from of stage.copies) copy(from);
  fs.mkdirSync(data);

  const [command, ...args] = stage.cmd;
  server = spawn(command === "node" ? process.execPath : command!, args, {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: app,
      ...stage.env,
      // Where the image has a volume and Fly's secrets.
      PORT: "0",
      DATABASE_PATH: path.join(data, "fairshake.db"),
      SESSION_SECRET: "image-test-secret-0123456789abcdef",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the image did not start:\n${output}`)),
      60_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    server!.stdout!.on("data", read);
    server!.stderr!.on("data", read);
    server!.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the image exited with ${code}:\n${output}`));
    });
  });
}, 300_000);

afterAll(() => {
  if (server && server.exitCode === null) server.kill("SIGKILL");
  fs.rmSync(app, { recursive: true, force: true });
});

describe("the production image, as the Dockerfile builds and runs it", () => {
  it("reads the Dockerfile's runtime stage", () => {
    expect(stage.cmd).toEqual(["node", "build/server.js"]);
    expect(stage.env.NODE_ENV).toBe("production");
    expect(stage.env.NODE_OPTIONS).toContain("--max-old-space-size=");
    expect(stage.copies).toContain("drizzle");
    expect(fs.existsSync(path.join(app, "node_modules", "vitest"))).toBe(false);
    expect(fs.existsSync(path.join(app, "node_modules", "react-router"))).toBe(
      true,
    );
  });

  it("migrates an empty database and answers /healthz", async () => {
    const res = await fetch(`${url}/healthz`);
    expect(res.status, await res.text()).toBe(200);
    expect(fs.existsSync(path.join(data, "fairshake.db"))).toBe(true);
  });

  it("serves a signed-in page and a share image", async () => {
    const client = new Client(url);
    const register = await client.post("/api/register", {
      username: "imagetest",
      email: "imagetest@example.com",
      password: "secret123",
    });
    expect(register.status, register.text).toBe(201);
    const bet = await client.post("/api/bets", {
      title: "Who wins the derby",
      description: "Home team wins the derby on Sunday.",
      amount: 25,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      visibility: "public",
    });
    expect(bet.status, bet.text).toBe(201);
    // A page only a signed-in user gets (a visitor is sent to /auth).
    const visitor = await new Client(url).get("/my-bets");
    expect(visitor.status).toBe(302);
    const page = await client.request("GET", "/my-bets", {
      headers: { Accept: "text/html" },
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Who wins the derby");
    const image = await fetch(`${url}/api/bets/${bet.data.id}/share-image`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await image.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(png.length).toBeGreaterThan(1000);
  });

  it("stops gracefully on SIGTERM", async () => {
    server!.removeAllListeners("exit");
    const exited = new Promise<number | null>((resolve) =>
      server!.once("exit", (code) => resolve(code)),
    );
    server!.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/Cannot find (module|package)/);
  });
});
