// Pages name each other through React Router's typed href()
// (docs/decisions/0936-route-paths-one-source.md): rename or remove a route in app/routes.ts and every
// link, redirect and form action that names it fails `npm run typecheck`.
// A path spelled as a string ("/bet/" + id, `/my-bets`) would still compile
// and silently 404, so this test fails on any such string under app/.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listAppRoutes } from "../support/route-table";

/** First segments of the page routes, e.g. "bet", "my-bets", "auth". */
const pageSegments = [
  ...new Set(
    listAppRoutes()
      .filter((r) => !r.file.startsWith("routes/api/"))
      .map((r) => r.path.split("/")[1])
      .filter((s): s is string => Boolean(s)),
  ),
];

/** Source files that name pages: everything under app/ but the route table
 *  itself, the /api door (it answers JSON, never links) and tests. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory())
      return p === path.join("app", "routes", "api") ? [] : sourceFiles(p);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
      ? [p]
      : [];
  });
}
// The offline queue's list names route patterns typed as href()'s argument
// is, so a renamed route fails typecheck there too.
const EXEMPT = new Set([
  "app/routes.ts",
  "app/route-paths.ts",
  "app/browser/offline-queue/queueable.ts",
]);

/** The string literals in `source` that spell a page path by hand. */
export function handSpelledPagePaths(source: string, segments: string[]) {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1")
    // what href() is given is the typed pattern itself: not a hand path
    .replace(/\bhref\(\s*(["'`])[^"'`]*\1/g, "href(");
  const pattern = new RegExp(
    `["'\`]/(${segments.map((s) => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")).join("|")})(?=["'\`/?$])[^"'\`]*["'\`]?`,
    "g",
  );
  return [...code.matchAll(pattern)].map((m) => m[0]);
}

describe("page paths through href()", () => {
  it("knows the page routes", () => {
    expect(pageSegments).toEqual(
      expect.arrayContaining(["bet", "my-bets", "auth", "settlements"]),
    );
  });

  it("catches a hand-spelled path and lets href() through", () => {
    const bad = [
      "const a = `/bet/${id}`;",
      'redirect("/my-bets?tab=joined");',
      '<Link to="/auth">',
    ].join("\n");
    expect(handSpelledPagePaths(bad, pageSegments)).toHaveLength(3);
    const good = [
      'const a = href("/bet/:id", { id: String(id) });',
      'const b = `${href("/my-bets")}?tab=joined`;',
      '// a comment may say "/auth"',
      'const c = "/betting-is-not-a-route";',
    ].join("\n");
    expect(handSpelledPagePaths(good, pageSegments)).toEqual([]);
  });

  it("no file under app/ spells a page path by hand", () => {
    const offenders = sourceFiles("app")
      .filter((f) => !EXEMPT.has(f.split(path.sep).join("/")))
      .flatMap((f) =>
        handSpelledPagePaths(fs.readFileSync(f, "utf8"), pageSegments).map(
          (literal) => `${f}: ${literal}`,
        ),
      );
    expect(offenders).toEqual([]);
  });
});
