// Which requests may write (app/pipeline/regions.server.ts): the reads of
// the routes that say they write (`writesOnGet` in their `handle`) are
// known as React Router routes them, in any case and any spelling, or a
// writing read outside the primary region would run on the replica and fail
// there (a 500). The routes' real modules say it.
import { beforeAll, describe, expect, it } from "vitest";
import { useRouteTable } from "~/framework/route-pattern";
import { routeTableWithModules } from "../../tests/support/server-route-table";
import { mayWrite } from "./regions.server";

const at = (path: string) => new URL(path, "http://fairshake.test");

describe("which requests may write", () => {
  beforeAll(async () => {
    useRouteTable(await routeTableWithModules());
  }, 120_000);

  it.each([
    "/share/12?code=ABCDEF",
    "/SHARE/12?code=ABCDEF",
    "/Share/12/?code=ABCDEF",
    "/share/12//",
    "/%73hare/12",
    "/share/12.data",
    "/JOIN/ABCDEF",
    "/join/ABCDEF.data",
    "/API/bets/code/ABCDEF",
    "/api/BETS/12/share-meta?code=ABCDEF",
    "/api/bets/12/SHARE-IMAGE?code=ABCDEF",
  ])("GET %s may write", (path) => {
    expect(mayWrite("GET", at(path))).toBe(true);
    expect(mayWrite("HEAD", at(path))).toBe(true);
  });

  it.each([
    "/bet/12",
    "/SEARCH",
    "/api/bets/12/share-meta",
    "/api/bets/12/SHARE-META?Code=ABCDEF",
    "/shares/12",
    "/share",
  ])("GET %s is a read", (path) => {
    expect(mayWrite("GET", at(path))).toBe(false);
  });

  it("every other method may write", () => {
    for (const method of ["POST", "put", "PATCH", "DELETE", "TRACE"])
      expect(mayWrite(method, at("/bet/12"))).toBe(true);
  });
});
