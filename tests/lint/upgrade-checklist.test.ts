// The React Router upgrade checklist (docs/upgrading-react-router.md) stays
// true: every test it names exists, every source file that uses an UNSAFE_ or
// unstable_ export is named in it, and the version it states is the one
// package.json pins and node_modules holds.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const GUIDE = "docs/upgrading-react-router.md";
const guide = fs.readFileSync(GUIDE, "utf8");

const TEST_FILE = /[\w./-]+\.(?:test|spec)\.tsx?/g;
const namedTests = [...new Set(guide.match(TEST_FILE) ?? [])];

const SOURCE = /\.(?:ts|tsx|js|mjs)$/;
const A_TEST = /\.(?:test|spec)\.tsx?$/;
const INTERNAL = /\b(?:UNSAFE_|unstable_)\w/;

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f).split(path.sep).join("/"))
    .filter((f) => SOURCE.test(f) && !A_TEST.test(f))
    .filter((f) => fs.statSync(f).isFile());
}

const PACKAGES = [
  "react-router",
  "@react-router/dev",
  "@react-router/node",
  "@react-router/express",
];

describe("the React Router upgrade checklist", () => {
  it("names tests", () => {
    expect(namedTests.length).toBeGreaterThan(5);
  });

  it.each(namedTests)("names %s, which exists", (file) => {
    expect(fs.existsSync(file), `${GUIDE} names ${file}`).toBe(true);
  });

  it("names every source file in app/ or server/ that uses an UNSAFE_ or unstable_ export", () => {
    const users = ["app", "server"]
      .flatMap(sourceFiles)
      .filter((f) => INTERNAL.test(fs.readFileSync(f, "utf8")));
    const missing = users.filter((f) => !guide.includes(`\`${f}\``));
    expect(missing, `add a row for each to ${GUIDE}`).toEqual([]);
  });

  it("states the version package.json pins exactly and node_modules holds", () => {
    const stated = /pinned to exactly \*\*(\d+\.\d+\.\d+)\*\*/.exec(guide)?.[1];
    expect(stated).toBeDefined();
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    for (const name of PACKAGES) {
      const pinned = pkg.dependencies?.[name] ?? pkg.devDependencies?.[name];
      expect(pinned, `package.json pins ${name}`).toBe(stated);
      const installed = JSON.parse(
        fs.readFileSync(
          path.join("node_modules", name, "package.json"),
          "utf8",
        ),
      ) as { version: string };
      expect(installed.version, `node_modules holds ${name}`).toBe(stated);
    }
  });
});
