// Runs one worker script in N processes that start at the same instant
// ("go" on stdin once all are ready) and returns what each printed.
import { spawn } from "node:child_process";

/**
 * A storm test's time limit. Each worker is a fresh Node process compiling
 * the models through tsx: on two shared cores with the rest of the suite
 * running, ten of them took 44 s to start (CI failed on the 30 s default).
 * The limit is about a loaded machine, never about how fast a rule is.
 */
export const STORM_TIMEOUT_MS = 180_000;

export async function storm(
  script: string,
  argsList: string[][],
): Promise<{ ok: boolean; status?: number; message?: string }[]> {
  const children = argsList.map((args) =>
    spawn(process.execPath, ["--import", "tsx", script, ...args], {
      stdio: ["pipe", "pipe", "inherit"],
    }),
  );
  const outputs = children.map(
    (child) =>
      new Promise<string>((resolve) => {
        let out = "";
        child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
        child.on("exit", () => resolve(out));
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
