// The pages' and the API's handlers (app/framework/route-split.ts) each hold their
// side of the real route table, and every path is sent to the side that
// holds the route React Router's matcher picks over the whole table.
import type { IncomingMessage } from "node:http";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import {
  dataRequestPage,
  nestRoutes,
  requestLeafRoute,
  useRouteTable,
} from "./route-pattern";
import { splitBuild } from "./route-split";
import {
  routeTable,
  SAMPLE_PATHS,
} from "../../tests/support/server-route-table";

/** The route a path reaches (a data request's: its page's; /_.data: /). */
function leafOf(routes: ServerBuild["routes"], path: string) {
  return matchRoutes(
    nestRoutes(routes) as unknown as RouteObject[],
    dataRequestPage(path) ?? path,
  )?.at(-1)?.route.id;
}

describe("one build, a handler for the pages and one for the API", () => {
  const table = routeTable();
  const entry = { module: "/assets/entry.client-x.js", imports: [] };
  const assets = {
    entry,
    routes: table,
    url: "/assets/manifest-0123abcd.js",
    version: "0123abcd",
  };
  const build = { routes: table, assets } as never;
  const split = splitBuild(build);
  useRouteTable(table);

  it("gives each side its own routes, and the API side the root", () => {
    const all = Object.keys(table);
    const api = Object.keys(split.api.routes);
    const pages = Object.keys(split.pages.routes);
    expect(api).toContain("root");
    expect(api).toContain("routes/api/bets/bet");
    expect(api).toContain("routes/api/not-found");
    expect(pages).toContain("routes/bets/bet-detail");
    expect(pages).toContain("routes/not-found");
    for (const id of pages) expect(split.isApiRoute(id), id).toBe(false);
    for (const id of api.filter((id) => id !== "root"))
      expect(split.isApiRoute(id), id).toBe(true);
    // Nothing lost, and each side far smaller than the whole.
    expect(new Set([...api, ...pages]).size).toBe(all.length);
    expect(api.length).toBeLessThan(all.length * 0.7);
    expect(pages.length).toBeLessThan(all.length * 0.7);
    expect(Object.keys(split.pages.assets.routes)).toEqual(pages);
  });

  it("sends every spelling of a path to the side whose route it reached before", () => {
    for (const path of SAMPLE_PATHS) {
      const req = { url: path } as IncomingMessage;
      const leaf = requestLeafRoute(req);
      if (path.startsWith("/assets/")) continue; // static files, not routes
      expect(leaf, path).toBe(leafOf(table, path));
      const side = split.isApiRoute(leaf) ? split.api : split.pages;
      expect(leafOf(side.routes, path), path).toBe(leaf);
    }
    const sideOf = (path: string) =>
      split.isApiRoute(requestLeafRoute({ url: path } as IncomingMessage))
        ? "api"
        : "pages";
    expect(sideOf("/API/bets")).toBe("api");
    expect(sideOf("/%61pi/bets")).toBe("api");
    expect(sideOf("/api/nothing/here")).toBe("api");
    expect(sideOf("/bet/1.data")).toBe("pages");
    expect(sideOf("/apiary")).toBe("pages");
  });

  it("gives the browser a manifest file of the pages' routes, named by its content", () => {
    const { url, source } = split.pagesManifest;
    expect(url).toMatch(/^\/assets\/manifest-pages-[0-9a-f]{8}\.js$/);
    expect(split.pages.assets.url).toBe(url);
    expect(split.api.assets.url).toBe(assets.url);
    // The file as React Router's plugin writes its own, for the pages only,
    // then the pages whose forms wait on the device (none in this table:
    // its routes' handles say nothing).
    const prefix = "window.__reactRouterManifest=";
    const [own, waiting] = source.split(";window.__fairshakeOffline=");
    expect(own!.startsWith(prefix)).toBe(true);
    expect(waiting).toBe("[];");
    const manifest = JSON.parse(own!.slice(prefix.length));
    expect(manifest).toEqual({
      entry,
      routes: split.pages.assets.routes,
      url,
      version: split.pages.assets.version,
    });
    expect(url).toContain(manifest.version);
    expect(
      Object.keys(manifest.routes).some((id) => split.isApiRoute(id)),
    ).toBe(false);
    // The same build names the same file; another page table, another.
    expect(splitBuild(build).pagesManifest).toEqual(split.pagesManifest);
    const { "routes/bets/bet-detail": _gone, ...fewer } = table;
    const other = splitBuild({
      routes: fewer,
      assets: { ...assets, routes: fewer },
    } as never);
    expect(other.pagesManifest.url).not.toBe(url);
  });
});
