// No file under app/ imports itself back, through any chain of imports
// (static, type-only, re-exports and `import()` alike): a cycle makes the
// order modules load in matter, and a newcomer cannot read either file
// first. Break one by moving what both need into a module of its own
// (app/browser/unsent-keys.ts, app/components/toast-look.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./app-files";

const SPECIFIER =
  /(?:^|[^\w.])(?:import|export)\s*(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The file under app/ a specifier names, or null (a package, a missing file). */
function resolve(from: string, specifier: string): string | null {
  const bare = specifier.split("?")[0]!;
  let base: string;
  if (bare.startsWith("~/")) base = path.posix.join("app", bare.slice(2));
  else if (bare.startsWith("."))
    base = path.posix.join(path.posix.dirname(from), bare);
  else return null;
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ])
    if (/\.(ts|tsx)$/.test(candidate) && fs.existsSync(candidate))
      return candidate;
  return null;
}

/** Each file's imports, with comments stripped so a path in prose is not one. */
function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const text = fs
        .readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      const targets = [...text.matchAll(SPECIFIER)]
        .map(([, a, b]) => resolve(file, (a ?? b)!))
        .filter((target): target is string => target !== null);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Every cycle, once each, as the chain of files from its first file back to it. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        const key = [...cycle].sort().join(" ");
        if (!cycles.has(key)) cycles.set(key, [...cycle, next]);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort())
    if (!state.has(file)) visit(file);
  return [...cycles.values()];
}

describe("import cycles", () => {
  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cyclesOf(graph)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
  });

  it("sees static, type-only and dynamic imports under app/", () => {
    const graph = importGraph(["app/components/toaster.tsx"]);
    expect(graph.get("app/components/toaster.tsx")).toEqual(
      expect.arrayContaining([
        "app/utils/idle.ts",
        "app/components/toast-look.ts",
        "app/components/live-toaster.tsx",
      ]),
    );
  });

  it("has no file cycle under app/", () => {
    const cycles = cyclesOf(importGraph(sourceFiles("app")));
    expect(cycles.map((cycle) => cycle.join(" → "))).toEqual([]);
  });
});
