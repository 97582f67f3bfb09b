// Runs one worker script in N processes that start at the same instant
// ("go" on stdin once all are ready) and returns what each printed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/**
 * A storm test's time limit. Each worker is a fresh Node process loading
 * the models: on two shared cores with the rest of the suite running, ten
 * of them took 44 s to start through tsx (CI failed on the 30 s default).
 * The limit is about a loaded machine, never about how fast a rule is.
 */
export const STORM_TIMEOUT_MS = 180_000;

// Workers run from one bundle per script, built once per test process the
// way scripts/build-server.mjs builds the server (packages stay external):
// through tsx, each of the 20 joiners compiled the models itself, and the
// join test's file took 65 s of CPU against 27 s with the bundle. Next to
// node_modules, so the packages resolve; removed when the test process ends.
const bundles = new Map<string, Promise<string>>();
const bundleDir = path.resolve(
  "node_modules/.cache/fairshake-storm",
  String(process.pid),
);

function bundled(script: string): Promise<string> {
  let built = bundles.get(script);
  if (!built) {
    const outfile = path.join(bundleDir, `${path.parse(script).name}.mjs`);
    if (bundles.size === 0)
      process.once("exit", () =>
        fs.rmSync(bundleDir, { recursive: true, force: true }),
      );
    built = build({
      entryPoints: [script],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      logLevel: "warning",
    }).then(() => outfile);
    bundles.set(script, built);
  }
  return built;
}

export async function storm(
  script: string,
  argsList: string[][],
): Promise<{ ok: boolean; status?: number; message?: string }[]> {
  const worker = await bundled(script);
  const children = argsList.map((args) =>
    spawn(process.execPath, [worker, ...args], {
      stdio: ["pipe", "pipe", "inherit"],
    }),
  );
  const outputs = children.map(
    (child) =>
      new Promise<string>((resolve) => {
        let out = "";
        child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
        // "close", not "exit": a child can exit before its last write has
        // been read from the pipe (a loaded CI run read "ready" alone).
        child.on("close", () => resolve(out));
      }),
  );
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) =>
          child.stdout!.once("data", () => resolve()),
        ),
    ),
  );
  for (const child of children) child.stdin!.write("go\n");
  return (await Promise.all(outputs)).map((o) =>
    JSON.parse(o.replace("ready\n", "")),
  );
}
