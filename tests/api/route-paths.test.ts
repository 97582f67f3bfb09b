// The paths server/serve.ts's middleware relies on come from one place
// (app/route-paths.ts) and must each be a route in app/routes.ts: renaming a
// route cannot silently drop its middleware (docs/decisions/0936-route-paths-one-source.md).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  API_PREFIX,
  HEALTH_PATH,
  SIGNED_API_PATHS,
  apiPath,
} from "~/route-paths";
import { listAppRoutes } from "../support/route-table";

const tablePaths = new Set(listAppRoutes().map((r) => r.path));

/** The paths the server relies on that the route table no longer has. */
function missing(paths: readonly string[], table: Set<string>) {
  return paths.filter((p) => !table.has(p));
}

// The server and the framework seam it hands requests through.
const serverSources = [
  "server.ts",
  ...["server", "app/framework"].flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => `${dir}/${f}`),
  ),
];

describe("route paths from one source", () => {
  it("every path server/serve.ts exempts is a route in app/routes.ts", () => {
    expect(SIGNED_API_PATHS.length).toBeGreaterThan(0);
    expect(missing(SIGNED_API_PATHS, tablePaths)).toEqual([]);
    for (const p of SIGNED_API_PATHS)
      expect(p.startsWith(apiPath(""))).toBe(true);
  });

  it("the health check is a route", () => {
    expect(missing([HEALTH_PATH], tablePaths)).toEqual([]);
  });

  it("the check fails when a route it relies on is renamed", () => {
    const renamed = new Set(
      [...tablePaths].map((p) =>
        p === SIGNED_API_PATHS[0] ? `${p}-renamed` : p,
      ),
    );
    expect(missing(SIGNED_API_PATHS, renamed)).toEqual([SIGNED_API_PATHS[0]]);
  });

  it("the API routes live under the one API prefix", () => {
    const api = listAppRoutes().filter((r) => r.file.startsWith("routes/api/"));
    expect(api.length).toBeGreaterThan(0);
    for (const r of api)
      expect(r.path.startsWith(`/${API_PREFIX}/`)).toBe(true);
  });

  it("server.ts, server/ and app/framework/ spell no route path by hand", () => {
    const routeLiterals = [...tablePaths].filter((p) => p !== "/");
    for (const file of serverSources) {
      const source = fs
        .readFileSync(file, "utf8")
        // comments may name paths
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/(^|[^:])\/\/.*$/gm, "$1");
      const literals = [...source.matchAll(/["'`](\/[^"'`$\s]*)["'`]/g)].map(
        (m) => m[1]!,
      );
      const handSpelled = literals.filter(
        (l) =>
          l.startsWith(`/${API_PREFIX}/`) ||
          routeLiterals.some((p) => l === p || l === `${p}/`),
      );
      expect(handSpelled, file).toEqual([]);
    }
  });
});
