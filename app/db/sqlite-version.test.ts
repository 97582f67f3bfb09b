// better-sqlite3 is pinned to 13.0.3 because the SQLite inside 13.1 and 13.2
// (3.54.1) runs the dashboard's, the bet page's and the session's statements
// four to five times slower than the 3.53 line does, with the same plans
// (docs/decisions/1168-sqlite-3-54-is-slower-on-our-statements.md). An upgrade
// changes these two lines only after `node scripts/bench/statements.mjs`, run
// beside the pinned version, shows the statements no slower.
import fs from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

describe("the SQLite Fairshake runs on", () => {
  it("is the measured one: better-sqlite3 13.0.3 with SQLite 3.53.4", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies["better-sqlite3"]).toBe("13.0.3");
    const db = new Database(":memory:");
    try {
      expect(db.prepare("select sqlite_version() as version").get()).toEqual({
        version: "3.53.4",
      });
    } finally {
      db.close();
    }
  });
});
