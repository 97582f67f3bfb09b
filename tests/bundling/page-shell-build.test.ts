// The built pages load their shell in few files
// (docs/decisions/1162-the-page-shell-in-few-files.md): read from what the
// browser is given, the route manifest a signed-in bet page imports. A
// bundler upgrade that renamed or dropped the chunking option would
// otherwise bring back dozens of small files without a word.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { newBet, person } from "../support/world";

const server = useServer();

type Manifest = {
  entry: { module: string; imports: string[] };
  routes: Record<
    string,
    { parentId?: string; module: string; imports?: string[] }
  >;
};

/** Every script file a route's page loads: the entry's, then each route's up the chain. */
function filesOf(manifest: Manifest, routeId: string): Set<string> {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (
    let route = manifest.routes[routeId];
    route;
    route = route.parentId ? manifest.routes[route.parentId] : undefined
  ) {
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  return files;
}

describe("the built page shell", () => {
  it("gives a bet page its packages and shell code in a few files", async () => {
    const alice = await person(server.url);
    const bet = await newBet(alice);
    const page = await alice.client.get(`/bet/${bet.id}`, {
      Accept: "text/html",
    });
    expect(page.status).toBe(200);
    const manifestUrl = /\/assets\/manifest-[\w-]+\.js/.exec(page.text)?.[0];
    expect(manifestUrl).toBeDefined();
    const source = (await alice.client.get(manifestUrl!)).text;
    // The file assigns globals, as the browser runs it.
    const window: { __reactRouterManifest?: Manifest } = {};
    new Function("window", source)(window);
    const manifest = window.__reactRouterManifest!;

    const entryFiles = [manifest.entry.module, ...manifest.entry.imports];
    expect(entryFiles.some((f) => /\/shell-packages-/.test(f))).toBe(true);
    expect(entryFiles.some((f) => /\/shell-[\w-]+\.js$/.test(f))).toBe(true);
    const betPage = filesOf(manifest, "routes/bets/bet-detail");
    expect([...betPage].some((f) => /\/app-shell-/.test(f))).toBe(true);
    // 16 when this was written, 31 before the shell was grouped.
    expect(betPage.size).toBeLessThanOrEqual(20);
  });
});
