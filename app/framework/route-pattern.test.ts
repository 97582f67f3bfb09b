// The route patterns kept by shape (app/framework/route-pattern.ts) answer exactly
// what React Router's matchRoutes answers for the same path, over the real
// route table (app/routes.ts), whatever order the paths come in.
import { describe, expect, it } from "vitest";
import {
  routePattern,
  routePatternUncached,
  useRouteTable,
} from "./route-pattern";
import {
  routeTable,
  SAMPLE_PATHS,
} from "../../tests/support/server-route-table";

describe("route patterns kept by shape", () => {
  useRouteTable(routeTable());

  const samples = SAMPLE_PATHS;

  it("gives matchRoutes' own answer for every path, in any order", () => {
    const expected = samples.map((p) => routePatternUncached(p));
    for (const order of [samples, [...samples].reverse()])
      for (const p of order)
        expect(routePattern(p), p).toBe(expected[samples.indexOf(p)]);
    // Spot checks that the table is the real one.
    expect(routePattern("/bet/42")).toBe("/bet/:id");
    expect(routePattern("/bet/42.data")).toBe("/bet/:id.data");
    expect(routePattern("/_.data")).toBe("/_.data");
    expect(routePattern("/my-bets/_.data")).toBe("/my-bets.data");
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
