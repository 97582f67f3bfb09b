// The docs a newcomer can finish (docs/README.md): every decision record,
// archived or not, has its row in the index, and the records under "Start
// here" name only files that exist — a record that sends a newcomer to a
// moved file fails here, not in their first hour.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const INDEX = fs.readFileSync("docs/README.md", "utf8");

const records = ["docs/decisions", "docs/decisions/archive"].flatMap((dir) =>
  fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-.+\.md$/.test(f))
    .map((f) => path.posix.join(dir, f)),
);

/** The "Start here" list's records, as paths from the repository's root. */
function startHere(): string[] {
  const section = INDEX.split(/^### Start here$/m)[1]?.split(/^### /m)[0];
  if (!section) return [];
  return [...section.matchAll(/\]\((decisions\/[^)#\s]+\.md)\)/g)].map(
    ([, link]) => `docs/${link}`,
  );
}

// A path in backticks that names a file of this repository.
const FILE_PATH =
  /`((?:app|server|scripts|tests|docs|public|drizzle)\/[\w./+-]+\.(?:ts|tsx|mjs|js|md|css|json|sql))`/g;

describe("the docs index", () => {
  it("lists every decision record", () => {
    const unlisted = records.filter(
      (record) => !INDEX.includes(`](${record.slice("docs/".length)})`),
    );
    expect(unlisted).toEqual([]);
  });

  it("starts a newcomer at records that name only files that exist", () => {
    const start = startHere();
    expect(start.length).toBeGreaterThan(5);
    const gone = start.flatMap((record) =>
      [...fs.readFileSync(record, "utf8").matchAll(FILE_PATH)]
        .map(([, file]) => file!)
        .filter((file) => !file.includes("*") && !fs.existsSync(file))
        .map((file) => `${record}: ${file}`),
    );
    expect(gone).toEqual([]);
  });
});
