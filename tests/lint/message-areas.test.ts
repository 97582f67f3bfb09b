// A page carries only the message areas its routes name in `handle.messages`
// (docs/decisions/1111-messages-per-page.md): a component that asks for a
// key of an area its page does not name would show the key itself. This
// reads each route module's own imports (the modules the browser can run:
// `.server` modules get every message on the server) and finds every area
// a string in them names; each must be named along the route's match.
import fs from "node:fs";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOGS, areaOf } from "~/framework/catalogs.server";
import { messageAreasOf } from "~/domain/route-traits";
import { routeTableWithModules } from "../support/server-route-table";
import routeConfig from "~/routes";

const APP = path.resolve(__dirname, "../../app");
const AREAS = new Set(Object.keys(CATALOGS.en).map(areaOf));

function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("~/")) base = path.join(APP, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const candidate of [
    base,
    `${base}.tsx`,
    `${base}.ts`,
    path.join(base, "index.ts"),
    path.join(base, "index.tsx"),
  ])
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate)) return candidate;
  return null;
}

/** The areas named by strings in a module and everything it imports. */
export function areasAsked(
  file: string,
  seen = new Set<string>(),
): Set<string> {
  const found = new Set<string>();
  if (seen.has(file) || /\.server\.tsx?$/.test(file)) return found;
  seen.add(file);
  const source = fs.readFileSync(file, "utf8");
  for (const m of source.matchAll(/["'`]([a-zA-Z]+)\.[a-zA-Z$]/g))
    if (AREAS.has(m[1]!)) found.add(m[1]!);
  for (const m of source.matchAll(
    /(?:from|import)\s*\(?\s*["']([^"']+)["']/g,
  )) {
    const next = resolveImport(file, m[1]!);
    if (next) for (const area of areasAsked(next, seen)) found.add(area);
  }
  return found;
}

type Entry = { id?: string; file: string; children?: Entry[] };
const FILES = new Map<string, string>([["root", path.join(APP, "root.tsx")]]);
(function walk(entries: Entry[]) {
  for (const entry of entries) {
    FILES.set(
      entry.id ?? entry.file.replace(/\.tsx?$/, ""),
      path.join(APP, entry.file),
    );
    if (entry.children) walk(entry.children);
  }
})(routeConfig as Entry[]);

describe("message areas", () => {
  let routes: ServerBuild["routes"];
  beforeAll(async () => {
    routes = await routeTableWithModules();
  }, 120_000);

  const named = (id: string) => {
    const handles: unknown[] = [];
    for (let r = routes[id]; r; r = routes[r.parentId ?? ""])
      handles.unshift(r.module.handle);
    return new Set(messageAreasOf(handles));
  };

  it("every route names the areas its modules ask for", () => {
    const missing: string[] = [];
    for (const [id, file] of FILES) {
      const have = named(id);
      for (const area of areasAsked(file))
        if (!have.has(area)) missing.push(`${id}: ${area}`);
    }
    expect(missing).toEqual([]);
  });

  it("names only areas that exist", () => {
    const unknown: string[] = [];
    for (const id of FILES.keys())
      for (const area of named(id))
        if (!AREAS.has(area)) unknown.push(`${id}: ${area}`);
    expect(unknown).toEqual([]);
  });

  it("finds an area asked for through an import", () => {
    expect(areasAsked(path.join(APP, "components/app-shell.tsx"))).toContain(
      "nav",
    );
  });
});
