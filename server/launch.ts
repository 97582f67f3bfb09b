// How Fairshake starts in production (build/server.js, the thin launcher in
// server.ts, calls `launch`):
// - with LITESTREAM_REPLICA_URL: a missing database is first restored from the
//   replica, then the server runs under `litestream replicate -exec`, which
//   streams every commit to the replica (docs/operations.md#litestream);
// - with WEB_CONCURRENCY > 1: a primary process forks that many workers
//   (node:cluster), which share the listening port and the database
//   (docs/operations.md#workers), and serves their summed metrics;
// - otherwise the server runs in this very process.
// Nothing here imports the app: the server itself (./serve.ts) is loaded only
// by the process that serves, so a primary or Litestream's parent never opens
// the database.
import { spawn, spawnSync } from "node:child_process";
import cluster, { type Worker } from "node:cluster";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { readEnvironment } from "~/utils/env.server";
import {
  databasePath,
  litestreamBin,
  litestreamReplicaUrl,
  litestreamSyncInterval,
  s3Environment,
  underLitestream,
  webConcurrency,
} from "~/utils/env-settings.server";

export type LaunchFiles = {
  /** The launcher itself (build/server.js): what Litestream runs again. */
  launcher: string;
  /** What a worker runs: one process serving (build/app-server.js). */
  oneProcess: string;
};

let files: LaunchFiles;
let replicaUrl: string | undefined;
let workers = 1;

function log(msg: string, fields: Record<string, unknown> = {}) {
  process.stdout.write(
    `${JSON.stringify({ level: 30, time: new Date().toISOString(), pid: process.pid, ...fields, msg })}\n`,
  );
}

export async function launch(
  launchFiles: LaunchFiles,
  argv = process.argv.slice(2),
) {
  // An invalid variable stops the launcher, named, before anything starts.
  readEnvironment();
  files = launchFiles;
  replicaUrl = litestreamReplicaUrl();
  workers = webConcurrency();
  if (argv[0] === "restore") {
    restoreCopy(argv[1]);
  } else if (replicaUrl && !underLitestream()) {
    runUnderLitestream(replicaUrl);
  } else if (workers > 1 && cluster.isPrimary) {
    await runPrimary();
  } else {
    const { serve } = await import("./serve");
    await serve();
  }
}

// --- Litestream ---------------------------------------------------------

function litestreamBinary() {
  const bin = litestreamBin();
  if (bin) return bin;
  const require = createRequire(import.meta.url);
  try {
    return require.resolve(
      `@flydotio/litestream-${process.platform}-${process.arch}/litestream`,
    );
  } catch {
    return "litestream"; // installed on the PATH
  }
}

/** Litestream's config, written fresh at each start; secrets stay in the environment. */
function writeLitestreamConfig(url: string, dbPath: string) {
  const lines = [
    "dbs:",
    `  - path: ${JSON.stringify(dbPath)}`,
    "    replicas:",
    `      - url: ${JSON.stringify(url)}`,
    `        sync-interval: ${JSON.stringify(litestreamSyncInterval())}`,
  ];
  // Fly's Tigris storage sets these; Litestream 0.3 reads the keys itself
  // but not the endpoint.
  const s3 = s3Environment();
  if (url.startsWith("s3:") && s3.endpoint)
    lines.push("        endpoint: $AWS_ENDPOINT_URL_S3");
  if (url.startsWith("s3:") && s3.region)
    lines.push("        region: $AWS_REGION");
  const file = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-litestream-")),
    "litestream.yml",
  );
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/**
 * `node build/server.js restore <file>`: the replica's latest state written
 * to <file>, to check a replica by hand (the live database is not touched).
 */
function restoreCopy(output: string | undefined) {
  if (!replicaUrl || !output) {
    log("usage: LITESTREAM_REPLICA_URL=… node build/server.js restore <file>");
    process.exit(2);
  }
  const dbPath = path.resolve(databasePath());
  const config = writeLitestreamConfig(replicaUrl, dbPath);
  const result = spawnSync(
    litestreamBinary(),
    ["restore", "-config", config, "-o", path.resolve(output), dbPath],
    { stdio: "inherit" },
  );
  fs.rmSync(path.dirname(config), { recursive: true, force: true });
  process.exit(result.status ?? 1);
}

function runUnderLitestream(url: string) {
  const bin = litestreamBinary();
  const dbPath = path.resolve(databasePath());
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });
  const config = writeLitestreamConfig(url, dbPath);
  // A lost volume: bring the database back before anything opens it.
  const started = Date.now();
  const restore = spawnSync(
    bin,
    [
      "restore",
      "-config",
      config,
      "-if-db-not-exists",
      "-if-replica-exists",
      dbPath,
    ],
    { stdio: "inherit" },
  );
  if (restore.status !== 0) {
    log("restore from the replica failed; not starting", {
      status: restore.status,
    });
    process.exit(1);
  }
  log("litestream: restore checked", {
    ms: Date.now() - started,
    restored: fs.existsSync(dbPath),
  });
  const exec = [process.execPath, files.launcher]
    .map((p) => `"${p}"`)
    .join(" ");
  const child = spawn(bin, ["replicate", "-config", config, "-exec", exec], {
    stdio: "inherit",
    // The child is this launcher again: it gets the environment as it came.
    // eslint-disable-next-line no-restricted-properties -- passed on whole, not read
    env: { ...process.env, FAIRSHAKE_UNDER_LITESTREAM: "1" },
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    fs.rmSync(path.dirname(config), { recursive: true, force: true });
    process.exit(code ?? (signal ? 1 : 0));
  });
}

// --- Workers -------------------------------------------------------------

async function runPrimary() {
  const { startMetricsServer } = await import("./metrics");
  cluster.setupPrimary({ exec: files.oneProcess });
  let stopping = false;
  let failed = false;
  const listening = new Set<number>();

  const fork = () =>
    new Promise<Worker>((resolve, reject) => {
      const worker = cluster.fork();
      worker.once("listening", (address) => {
        listening.add(worker.id);
        resolve(worker);
        if (listening.size === workers)
          log(
            `Fairshake: ${workers} workers listening on http://localhost:${address.port}`,
          );
      });
      worker.once("exit", (code, signal) => {
        const wasListening = listening.delete(worker.id);
        if (stopping) {
          if (code !== 0) failed = true;
          if (Object.keys(cluster.workers ?? {}).length === 0)
            process.exit(failed ? 1 : 0);
          return;
        }
        if (!wasListening) {
          // It never started (bad configuration, say): starting it again
          // would fail the same way.
          reject(
            new Error(`worker exited before listening (${code ?? signal})`),
          );
          return;
        }
        log("worker died; starting another", { code, signal });
        setTimeout(() => void fork().catch(fatal), 1_000);
      });
    });

  function fatal(error: Error) {
    log(error.message);
    stopping = true;
    failed = true;
    for (const w of Object.values(cluster.workers ?? {}))
      w?.process.kill("SIGTERM");
    setTimeout(() => process.exit(1), 15_000).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log("stopping workers", { signal });
      for (const w of Object.values(cluster.workers ?? {}))
        w?.process.kill("SIGTERM");
      // Each worker has its own 10 s grace period.
      setTimeout(() => {
        log("workers did not stop in time");
        process.exit(1);
      }, 15_000).unref();
    });

  try {
    // The first worker migrates (and seeds the demo) alone; then the rest.
    await fork();
    await Promise.all(Array.from({ length: workers - 1 }, fork));
  } catch (error) {
    fatal(error as Error);
    return;
  }
  startMetricsServer({ aggregate: true });
}
