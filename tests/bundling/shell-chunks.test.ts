// The page shell's chunk groups (scripts/bundling/shell-chunks.ts): a layer
// takes what its roots import statically and nothing a page might not load.
import { describe, expect, it } from "vitest";
import { shellChunks } from "../../scripts/bundling/shell-chunks";

type Graph = Record<string, string[]>;

/** Runs the plugin's buildEnd over a module graph, as the bundler would. */
function chunksOf(graph: Graph, layers: Parameters<typeof shellChunks>[0]) {
  const { plugin, groups } = shellChunks(layers);
  const context = {
    getModuleIds: () => Object.keys(graph)[Symbol.iterator](),
    getModuleInfo: (id: string) => ({ importedIds: graph[id] ?? [] }),
  };
  (plugin.buildEnd as unknown as (this: typeof context) => void).call(context);
  /** The group a module goes to, by priority, as the bundler picks. */
  return (id: string) =>
    [...groups]
      .sort((a, b) => b.priority - a.priority)
      .find((group) => group.test(id))?.name ?? null;
}

const graph: Graph = {
  "/app/entry.client.tsx": ["/node_modules/react-dom/index.js", "/app/a.ts"],
  "/app/root.tsx": ["/app/b.ts"],
  "/app/root.tsx?__react-router-build-client-route": ["/app/root.tsx"],
  "/app/layout.tsx?__react-router-build-client-route": ["/app/layout.tsx"],
  "/app/layout.tsx": ["/app/c.ts", "/app/a.ts", "/node_modules/tiny/x.js"],
  "/app/route.tsx": ["/app/d.ts", "/app/c.ts"],
  "/app/a.ts": [],
  "/app/b.ts": ["/app/a.ts"],
  "/app/c.ts": [],
  "/app/d.ts": [],
  "/node_modules/react-dom/index.js": ["/node_modules/scheduler/index.js"],
  "/node_modules/scheduler/index.js": [],
  "/node_modules/tiny/x.js": [],
};
const layers = [
  { name: "shell", roots: ["/app/entry.client.tsx", "/app/root.tsx"] },
  { name: "app-shell", roots: ["/app/layout.tsx"] },
];

describe("shellChunks", () => {
  it("puts a layer's packages and its own code in two chunks", () => {
    const chunk = chunksOf(graph, layers);
    expect(chunk("/node_modules/react-dom/index.js")).toBe("shell-packages");
    expect(chunk("/node_modules/scheduler/index.js")).toBe("shell-packages");
    expect(chunk("/app/a.ts")).toBe("shell");
    expect(chunk("/app/b.ts")).toBe("shell");
  });

  it("leaves what an earlier layer took there", () => {
    const chunk = chunksOf(graph, layers);
    // The layout imports a.ts too; the shell, loaded by every page, keeps it.
    expect(chunk("/app/a.ts")).toBe("shell");
    expect(chunk("/app/c.ts")).toBe("app-shell");
    expect(chunk("/node_modules/tiny/x.js")).toBe("app-shell-packages");
  });

  it("takes neither the roots nor what only a page imports", () => {
    const chunk = chunksOf(graph, layers);
    for (const root of [
      "/app/root.tsx",
      "/app/root.tsx?__react-router-build-client-route",
      "/app/layout.tsx",
      "/app/layout.tsx?__react-router-build-client-route",
      "/app/entry.client.tsx",
      "/app/route.tsx",
      "/app/d.ts",
    ])
      expect(chunk(root)).toBeNull();
  });

  it("takes nothing before the graph is known", () => {
    const { groups } = shellChunks(layers);
    expect(groups.some((group) => group.test("/app/a.ts"))).toBe(false);
  });
});
