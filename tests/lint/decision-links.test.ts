// Every decision record named in the code and the docs exists where it is
// named: a path such as `docs/decisions/1020-two-engines.md`, or a Markdown
// link to a record relative to the file that holds it. A record moved or
// renamed without its mentions fails here instead of leaving dead links.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["app", "server", "scripts", "tests", "public", "docs"];
const TOP = [
  "README.md",
  "Dockerfile",
  "eslint.config.js",
  "react-router.config.ts",
  "server.ts",
];
const TEXT = /\.(?:ts|tsx|js|mjs|cjs|md|json|toml|yml|yaml|css)$|Dockerfile$/;

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f).split(path.sep).join("/"))
    .filter((f) => !f.includes("node_modules/") && TEXT.test(f))
    .filter((f) => fs.statSync(f).isFile());
}

const all = [...ROOTS.flatMap(files), ...TOP.filter((f) => fs.existsSync(f))];

// A path from the repository's root, with the record's name or its number
// alone (`docs/decisions/archive/0842` names the record that starts with it).
const REPO_PATH = /docs\/decisions\/((?:archive\/)?)(\d{4})(-[a-z0-9-]+\.md)?/g;
// A Markdown link to a record, relative to the file that holds it.
const MD_LINK = /\]\(([^()\s#]*\d{4}-[a-z0-9-]+\.md)(?:#[^)]*)?\)/g;

function missingIn(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const missing: string[] = [];
  for (const [named, archive, number, rest] of text.matchAll(REPO_PATH)) {
    const dir = `docs/decisions/${archive}`;
    const found = rest
      ? fs.existsSync(dir + number + rest)
      : fs.existsSync(dir) &&
        fs.readdirSync(dir).some((f) => f.startsWith(`${number}-`));
    if (!found) missing.push(named);
  }
  if (file.endsWith(".md"))
    for (const [, link = ""] of text.matchAll(MD_LINK))
      if (!fs.existsSync(path.join(path.dirname(file), link)))
        missing.push(link);
  return missing;
}

describe("mentions of decision records", () => {
  it("are there to check", () => {
    expect(
      all.filter((f) => REPO_PATH.test(fs.readFileSync(f, "utf8"))).length,
    ).toBeGreaterThan(10);
  });

  it("name records that exist", () => {
    const dead = all.flatMap((f) => missingIn(f).map((m) => `${f}: ${m}`));
    expect(dead).toEqual([]);
  });
});
