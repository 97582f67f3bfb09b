// Every decision record says when it was made and whether it still holds,
// in the same two lines (docs/decisions/archive/0803-bounded-memory.md):
// `- Date: YYYY-MM-DD` and `- Status: accepted…` or `- Status: superseded-by NNNN`.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The performance lab notes live in archive/; they keep the same two lines.
const DIRS = ["docs/decisions", "docs/decisions/archive"];
// Records are NNNN-name.md; TEMPLATE.md is the blank a new record starts from.
const records = DIRS.flatMap((dir) =>
  fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-.+\.md$/.test(f))
    .map((f) => path.join(dir, f)),
);
const DATE = /^- Date: \d{4}-\d{2}-\d{2}( \(.+\))?$/m;
const STATUS = /^- Status: (accepted\b.*|superseded-by (\d{4}))$/m;

describe("decision records", () => {
  it("are there to check", () => {
    expect(records.length).toBeGreaterThan(10);
  });

  it.each(records)("%s has a Date and a Status line", (file) => {
    const text = fs.readFileSync(file, "utf8");
    expect(text, "- Date: YYYY-MM-DD").toMatch(DATE);
    expect(text, "- Status: accepted | superseded-by NNNN").toMatch(STATUS);
    const by = STATUS.exec(text)?.[2];
    if (by)
      expect(
        records.some((r) => path.basename(r).startsWith(`${by}-`)),
        `${file} is superseded by ${by}, which does not exist`,
      ).toBe(true);
  });
});
