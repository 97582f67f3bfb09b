// The route patterns kept by shape (server/route-pattern.ts) answer exactly
// what React Router's matchRoutes answers for the same path, over the real
// route table (app/routes.ts), whatever order the paths come in.
import { describe, expect, it } from "vitest";
import type { ServerBuild } from "react-router";
import routes from "~/routes";
import {
  routePattern,
  routePatternUncached,
  useRouteTable,
} from "./route-pattern";

type Entry = {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: Entry[];
};

/** app/routes.ts as a server build's route table, under a root route. */
function routeTable(): ServerBuild["routes"] {
  const table: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: {} } as never,
  };
  const walk = (entries: Entry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.tsx?$/, "");
      table[id] = {
        id,
        parentId,
        path: entry.path,
        index: entry.index,
        caseSensitive: entry.caseSensitive,
        module: { handle: { id } },
      } as never;
      if (entry.children) walk(entry.children, id);
    }
  };
  walk(routes as Entry[], "root");
  return table;
}

describe("route patterns kept by shape", () => {
  useRouteTable(routeTable());

  const samples = [
    "/",
    "/auth",
    "/AUTH",
    "/my-bets",
    "/my-bets/",
    "/bet/1",
    "/bet/999",
    "/bet/abc",
    "/bet/%62et",
    "/bet/1/edit",
    "/bet/edit",
    "/bet/bet",
    "/bet/1/rule",
    "/bet//1",
    "/%62et/1",
    "/bet/%E0%A4%A",
    "/edit-bet/7",
    "/settle-bet/3",
    "/bets/5",
    "/join/ABCDEF",
    "/share/1",
    "/help",
    "/help/fees",
    "/help/nothing",
    "/profile/edit",
    "/profile/nothing/else",
    "/api/user",
    "/api/bets/1",
    "/api/bets/code/XYZ",
    "/api/bets/1/join",
    "/api/bets/join",
    "/api/nothing/here",
    "/api",
    "/nothing",
    "/nothing/at/all",
    "/_root.data",
    "/_root",
    "/bet/1.data",
    "/bet/2.data",
    "/my-bets.data",
    "/assets/app-123.js",
    "/avatars/12",
    "/healthz",
    "/bench/bare",
    "//bet/1",
    "*",
    "/" + "x/".repeat(400),
  ];

  it("gives matchRoutes' own answer for every path, in any order", () => {
    const expected = samples.map((p) => routePatternUncached(p));
    for (const order of [samples, [...samples].reverse()])
      for (const p of order)
        expect(routePattern(p), p).toBe(expected[samples.indexOf(p)]);
    // Spot checks that the table is the real one.
    expect(routePattern("/bet/42")).toBe("/bet/:id");
    expect(routePattern("/bet/42.data")).toBe("/bet/:id.data");
    expect(routePattern("/_root.data")).toBe("/_root.data");
    expect(routePattern("/api/bets/code/Q1")).toBe("/api/bets/code/:code");
  });

  it("stays right once the kept shapes overflow", () => {
    // 7^4 shapes of static words and ids, more than are kept at once.
    const words = ["bet", "api", "edit", "rule", "bets", "join", "7"];
    for (let i = 0; i < 700; i += 1) {
      const p = [i, i / 7, i / 49, i / 343]
        .map((n) => `/${words[Math.floor(n) % 7]}`)
        .join("");
      expect(routePattern(p), p).toBe(routePatternUncached(p));
      expect(routePattern(p), p).toBe(routePatternUncached(p));
    }
  });
});
