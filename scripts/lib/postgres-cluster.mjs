// A throwaway PostgreSQL cluster for the tests: Debian's `postgresql`
// (installed here when missing), run as the `postgres` user (initdb and
// postgres refuse root) in a temp folder it owns, on a free port, with
// fsync off — it holds nothing worth keeping. About a second to start.
//
//   const cluster = await startCluster();   // { url, adminUrl, stop() }
//   await createDatabase(cluster.adminUrl, "name", { template })
//   const standby = await startStandby(cluster);  // a streaming read replica
//
// `settings` (name → value) go into a server's postgresql.auto.conf before
// it starts: `synchronous_standby_names` on a primary, for instance. A
// standby can reach its primary through a relay (`upstreamPort`, see
// ./tcp-relay.mjs) under an `applicationName`; `kill()` ends a server as a
// lost machine ends (SIGKILL, every process of it), `promote()` makes a
// standby the primary.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const ROOT = process.getuid?.() === 0;

/** The folder of PostgreSQL's server binaries, installing the package if needed. */
export function postgresBin() {
  const found = findBin();
  if (found) return found;
  if (!ROOT)
    throw new Error(
      "PostgreSQL's server is not installed: apt-get install postgresql",
    );
  console.info("installing Debian's postgresql (once)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  run("apt-get", ["update"], env);
  run(
    "apt-get",
    ["install", "-y", "--no-install-recommends", "postgresql"],
    env,
  );
  const installed = findBin();
  if (!installed) throw new Error("postgresql installed but no server found");
  return installed;
}

function findBin() {
  const base = "/usr/lib/postgresql";
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], "bin") : null;
}

function run(cmd, args, env = process.env) {
  const result = spawnSync(cmd, args, { stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
}

/** Runs a server binary as the `postgres` user when we are root. */
function asPostgres(bin, args) {
  const [cmd, argv] = ROOT
    ? ["runuser", ["-u", "postgres", "--", bin, ...args]]
    : [bin, args];
  return execFileSync(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a cluster; `stop()` removes it. */
export async function startCluster({ port, settings = {} } = {}) {
  const bin = postgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-pg-"));
  if (ROOT) execFileSync("chown", ["postgres:postgres", dir]);
  const data = path.join(dir, "data");
  asPostgres(path.join(bin, "initdb"), [
    "-D",
    data,
    "-A",
    "trust",
    "-U",
    "postgres",
    "--no-sync",
  ]);
  port ??= await freePort();
  configure(data, settings);
  return runServer(bin, dir, data, port);
}

/** Appends `settings` to the data folder's postgresql.auto.conf (later lines win). */
function configure(data, settings) {
  const lines = Object.entries(settings).map(
    ([name, value]) => `${name} = '${String(value).replaceAll("'", "''")}'\n`,
  );
  if (lines.length)
    fs.appendFileSync(path.join(data, "postgresql.auto.conf"), lines.join(""));
}

/** The server's processes: the postmaster and its children. */
function serverPids(data) {
  const file = path.join(data, "postmaster.pid");
  if (!fs.existsSync(file)) return [];
  const postmaster = Number(fs.readFileSync(file, "utf8").split("\n")[0]);
  const children = spawnSync("ps", ["-o", "pid=", "--ppid", String(postmaster)])
    .stdout.toString()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  return [postmaster, ...children];
}

/** Starts the server of the data folder `data` on `port`; the cluster's handle. */
function runServer(bin, dir, data, port) {
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=300",
  ].join(" ");
  const pgCtl = path.join(bin, "pg_ctl");
  const start = () =>
    asPostgres(pgCtl, [
      "-D",
      data,
      "-w",
      "-l",
      path.join(dir, "log"),
      "-o",
      options,
      "start",
    ]);
  start();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    dir,
    port,
    adminUrl,
    /** Stops the server as a restart does (clients cut off, commits kept); `resume` starts it again. */
    pause() {
      asPostgres(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"]);
    },
    resume: start,
    /** SIGKILL to the postmaster and each of its processes: the machine is gone. */
    kill() {
      for (const pid of serverPids(data)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    },
    /** A standby becomes the primary (pg_ctl promote, waiting for it). */
    promote() {
      asPostgres(pgCtl, ["-D", data, "-w", "promote"]);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"]);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A streaming read replica of `primary` (a hot standby), as a region's
 * replica on Fly: `pg_basebackup -R` copies the primary and writes the
 * standby's settings; it then follows the primary's WAL on its own port.
 * PostgreSQL 15's defaults allow it (wal_level=replica, max_wal_senders=10,
 * and initdb's trust entries for replication from 127.0.0.1). The handle is
 * a cluster's; `pause()` stops the server (a lost replica).
 */
export async function startStandby(
  primary,
  { port, settings = {}, upstreamPort, applicationName } = {},
) {
  const bin = postgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-pg-standby-"));
  if (ROOT) execFileSync("chown", ["postgres:postgres", dir]);
  const data = path.join(dir, "data");
  asPostgres(path.join(bin, "pg_basebackup"), [
    "-h",
    "127.0.0.1",
    "-p",
    String(primary.port),
    "-U",
    "postgres",
    "-D",
    data,
    "-R",
    "-X",
    "stream",
    "-c",
    "fast",
    "--no-sync",
  ]);
  port ??= await freePort();
  configure(data, {
    // The primary's own synchronous standbys are not this one's: promoted,
    // it waits for none until one is named.
    synchronous_standby_names: "",
    ...(upstreamPort || applicationName
      ? {
          primary_conninfo: `host=127.0.0.1 port=${upstreamPort ?? primary.port} user=postgres application_name=${applicationName ?? "walreceiver"}`,
        }
      : {}),
    ...settings,
  });
  return runServer(bin, dir, data, port);
}

/** A database's URL on another server of the same cluster (a standby's). */
export function databaseUrlOn(server, name) {
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates a database (from `template` if given) and returns its URL. */
export async function createDatabase(adminUrl, name, { template } = {}) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(
      `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`,
    );
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
