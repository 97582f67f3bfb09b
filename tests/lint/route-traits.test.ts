// Every route says what it is in its own `handle` (app/framework/
// route-traits.ts, docs/decisions/1085-route-traits-in-handle.md): a page
// with an action says whether its unsent forms wait on the device, and the
// lists the browser and the service worker get are the routes' own word.
// Read from the real route modules, as the server's build holds them.
import fs from "node:fs";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { routeTraitsTable } from "~/framework/route-split";
import { traitsOf, type RouteTraits } from "~/domain/route-traits";
import { CATALOGS } from "~/framework/catalogs.server";
import { serviceWorkerSource } from "../../server/service-worker-file";
import { routeTableWithModules } from "../support/server-route-table";

type Routes = ServerBuild["routes"];

const pathOf = (routes: Routes, id: string) => {
  const parts: string[] = [];
  for (let r = routes[id]; r; r = routes[r.parentId ?? ""])
    if (r.path) parts.unshift(r.path);
  return `/${parts.join("/")}`;
};

const ownTraits = (routes: Routes, id: string): RouteTraits =>
  traitsOf([routes[id]?.module.handle]);

/**
 * The routes that break the rule: a page with an action that does not say
 * whether its forms wait (`offline`), and a route outside the key rule
 * (`session`) whose forms would wait.
 */
export function routesMissingTraits(routes: Routes): string[] {
  const wrong: string[] = [];
  for (const [id, route] of Object.entries(routes)) {
    if (!route || !("action" in route.module) || !route.module.action) continue;
    const path = pathOf(routes, id);
    const traits = ownTraits(routes, id);
    const page = !/^\/api(\/|$)/.test(path);
    if (page && traits.offline === undefined)
      wrong.push(`${path}: a page with an action must say \`offline\``);
    if (!page && traits.offline !== undefined)
      wrong.push(`${path}: the /api has no offline queue`);
    if (traits.session && traits.offline)
      wrong.push(`${path}: a session's form never waits`);
  }
  return wrong;
}

describe("route traits", () => {
  let routes: Routes;
  beforeAll(async () => {
    routes = await routeTableWithModules();
  }, 120_000);

  it("every route with an action says what its writes are", () => {
    expect(routesMissingTraits(routes)).toEqual([]);
  });

  it("fails a new page with an action that says nothing", () => {
    const added = {
      ...routes,
      "routes/new": {
        id: "routes/new",
        parentId: "routes/app-layout",
        path: "new",
        module: { action: () => null },
      },
    } as unknown as Routes;
    expect(routesMissingTraits(added)).toEqual([
      "/new: a page with an action must say `offline`",
    ]);
  });

  it("keyed writes: only signing in, up and out are outside the key rule", () => {
    const outside = Object.keys(routes)
      .filter((id) => ownTraits(routes, id).session)
      .map((id) => pathOf(routes, id))
      .sort();
    expect(outside).toEqual([
      "/api/login",
      "/api/logout",
      "/api/passkeys/sign-in",
      "/api/passkeys/sign-in/options",
      "/api/register",
      "/auth",
      "/logout",
    ]);
  });

  it("the reads that write are the code's and the share link's", () => {
    const writing = Object.keys(routes)
      .filter((id) => ownTraits(routes, id).writesOnGet)
      .map((id) => [pathOf(routes, id), ownTraits(routes, id).writesOnGet])
      .sort();
    expect(writing).toEqual([
      ["/api/bets/:id/share-image", { whenQuery: "code" }],
      ["/api/bets/:id/share-meta", { whenQuery: "code" }],
      ["/api/bets/code/:code", true],
      ["/join/:code", true],
      ["/share/:id", true],
    ]);
  });

  it("only a message with its photos takes multipart (the /api call and the bet page)", () => {
    const multipart = Object.keys(routes)
      .filter((id) => ownTraits(routes, id).multipart)
      .map((id) => pathOf(routes, id))
      .sort();
    expect(multipart).toEqual(["/api/bets/:id/messages", "/bet/:id"]);
  });

  it("paying, passwords, the email and account data never wait on the device", () => {
    const waiting = routeTraitsTable(routes).offline.map((r) => r.pattern);
    for (const never of [
      "/checkout/:id",
      "/payment/:id",
      "/profile",
      "/profile/security",
      "/profile/data",
      "/auth",
      "/logout",
      "/forgot-password",
      "/reset-password",
    ])
      expect(waiting, never).not.toContain(never);
    expect(waiting).toContain("/create-bet");
    expect(waiting).toContain("/bet/:id");
  });

  // docs/product-rules.md#languages: the list of kept actions names each
  // in the reader's language, so a route names it by a key of the `kept`
  // area, which the layout of every page with that list carries.
  it("every kept action's name is a message of the kept area", () => {
    const names = routeTraitsTable(routes).offline.flatMap(({ offline }) => [
      offline.label,
      ...Object.values(offline.intents ?? {}),
    ]);
    expect(names.length).toBeGreaterThan(10);
    const wrong = names.filter(
      (key) => !key.startsWith("kept.") || !(key in CATALOGS.en),
    );
    expect(wrong).toEqual([]);
  });

  it("the service worker is told the sign-out posts and the pages kept for reading", () => {
    const table = routeTraitsTable(routes);
    expect(table.signOut.sort()).toEqual([
      "/api/logout",
      "/logout",
      "/logout.data",
    ]);
    expect(table.keptForReading.sort()).toEqual([
      "/",
      "/bet/:id",
      "/my-bets",
      "/notifications",
    ]);
    const source = serviceWorkerSource(
      fs.readFileSync("public/sw.js", "utf8"),
      table,
    );
    expect(source).toMatch(/"signOut":\[[^\]]*"\/api\/logout"/);
    expect(() => serviceWorkerSource("no table here", table)).toThrow();
  });
});
