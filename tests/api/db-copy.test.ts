// `npm run db:copy` (docs/operations.md#postgres-on-fly): a SQLite
// deployment with people, a settled and paid bet and open sessions is
// copied into an empty PostgreSQL database; a server on PostgreSQL then
// serves the same people from the same sessions, new rows take new ids, and
// a second copy into the filled database is refused. Its own cluster, in
// the PostgreSQL half of the matrix.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDatabase,
  startCluster,
  type Cluster,
} from "../../scripts/lib/postgres-cluster.mjs";
import Database from "better-sqlite3";
import { Client, signUp, startServer } from "../support/server";
import { onPostgres } from "../support/test-database";
import { payOverHttp, settledBetOverHttp } from "./settle-helpers";

const copy = (dbPath: string, to: string) =>
  spawnSync(process.execPath, ["scripts/db/copy.mjs", "--to", to], {
    env: { ...process.env, DATABASE_PATH: dbPath },
    encoding: "utf8",
  });

describe.runIf(onPostgres())("db:copy from SQLite into PostgreSQL", () => {
  let cluster: Cluster;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-copy-"));
  const dbPath = path.join(dir, "from.db");
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(() => {
    cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Four processes start one after the other (two servers, two copies): on
  // a busy machine that alone took more than Vitest's 30 s.
  it(
    "copies every row with its id, then a PostgreSQL server serves the same sessions",
    {
      timeout: 120_000,
    },
    async () => {
      // A SQLite deployment: DATABASE_URL emptied, so the server runs on the file.
      const before = await startServer({
        DATABASE_PATH: dbPath,
        DATABASE_URL: "",
      });
      let winner: { client: Client }, loser: { client: Client }, betId: number;
      try {
        ({ betId, winner, loser } = await settledBetOverHttp(before.url, 30));
        await payOverHttp(loser.client, betId);
      } finally {
        await before.stop();
      }

      const to = await createDatabase(cluster.adminUrl, "moved");
      const done = copy(dbPath, to);
      expect(done.status, done.stderr).toBe(0);
      expect(done.stdout).toMatch(/^users: \d+ rows$/m);
      expect(done.stdout).toMatch(/^ledger_entries: 4 rows$/m);
      expect(done.stdout).toContain("ledger: sums to zero on both sides");

      const after = await startServer({ DATABASE_URL: to });
      try {
        const asLoser = new Client(after.url);
        const history = await asLoser.request("GET", "/api/financial-history", {
          headers: { Cookie: loser.client.cookieHeader },
        });
        expect(history.status, history.text).toBe(200);
        expect(
          history.data.transactions.map(
            (t: { type: string; amount: string }) => [t.type, t.amount],
          ),
        ).toEqual([["payment", "-30.00"]]);
        const bet = await asLoser.request("GET", `/api/bets/${betId}`, {
          headers: { Cookie: winner.client.cookieHeader },
        });
        expect(bet.data).toMatchObject({ id: betId, status: "settled" });
        // The next bet takes the next id, past the copied ones.
        const next = await asLoser.request("POST", "/api/bets", {
          json: {
            title: "After the move",
            description: "A new row on PostgreSQL.",
            amount: 5,
            deadline: new Date(Date.now() + 86_400_000).toISOString(),
            visibility: "public",
          },
          headers: { Cookie: loser.client.cookieHeader },
        });
        expect(next.status, next.text).toBe(201);
        expect(next.data.id).toBeGreaterThan(betId);
      } finally {
        await after.stop();
      }

      const again = copy(dbPath, to);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain("the target is not empty");
    },
  );

  // Text stored before the door refused control characters
  // (docs/decisions/1062-control-characters-refused-at-the-door.md) may
  // hold a NUL, which PostgreSQL cannot store: the copy names where it is.
  it(
    "names the row and column of a NUL PostgreSQL cannot take, and copies nothing",
    { timeout: 60_000 },
    async () => {
      const oldPath = path.join(dir, "old.db");
      const before = await startServer({
        DATABASE_PATH: oldPath,
        DATABASE_URL: "",
      });
      let userId: number;
      try {
        userId = (await signUp(before.url)).user.id;
      } finally {
        await before.stop();
      }
      const file = new Database(oldPath);
      file
        .prepare("UPDATE users SET avatar_url = ? WHERE id = ?")
        .run("https://example.com/a\u0000.png", userId);
      file.close();
      const to = await createDatabase(cluster.adminUrl, "with_nul");
      const done = copy(oldPath, to);
      expect(done.status).toBe(1);
      expect(done.stderr).toContain(
        `users.avatar_url (id ${userId}) holds a NUL character`,
      );
    },
  );
});
