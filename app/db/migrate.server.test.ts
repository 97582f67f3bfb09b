import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations, snapshotBeforeMigrating } from "./migrate.server";

const dirs: string[] = [];
function freshDb() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-snap-"));
  dirs.push(dir);
  return new Database(path.join(dir, "app.db"));
}
afterEach(() => {
  for (const d of dirs.splice(0))
    fs.rmSync(d, { recursive: true, force: true });
});

describe("snapshot before migrating", () => {
  it("skips a new database and one with nothing pending", () => {
    const db = freshDb();
    expect(snapshotBeforeMigrating(db)).toBeNull();
    applyMigrations(db);
    expect(snapshotBeforeMigrating(db)).toBeNull();
    expect(fs.readdirSync(path.dirname(db.name))).toEqual(["app.db"]);
    db.close();
  });

  it("copies a database with data before a pending migration runs", () => {
    const db = freshDb();
    applyMigrations(db);
    db.prepare("CREATE TABLE keep_me (v TEXT)").run();
    db.prepare("INSERT INTO keep_me VALUES ('before')").run();
    // The newest migration looks unapplied, as after a deploy that adds one.
    db.prepare(
      'DELETE FROM "__drizzle_migrations" WHERE created_at = (SELECT max(created_at) FROM "__drizzle_migrations")',
    ).run();
    const copy = snapshotBeforeMigrating(db);
    expect(copy).toMatch(/app\.db\.pre-migration-/);
    const snap = new Database(copy!, { readonly: true });
    expect(snap.prepare("SELECT v FROM keep_me").pluck().get()).toBe("before");
    expect(snap.pragma("integrity_check", { simple: true })).toBe("ok");
    snap.close();
    db.close();
  });
});
