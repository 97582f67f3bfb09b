// The page shell in few files: every module that a hydrated page always
// loads (the client entry's and the root's static imports, then the app
// layout's) goes into one chunk per layer, instead of the dozens of small
// chunks the bundler makes by default, one per set of routes that share a
// module. A slow phone pays for every file it starts: a fetch, a compile
// task, and the tasks that hand its bytes over. Nothing moves into a page
// that did not already load it: a layer takes only what its roots import
// statically, and every page below it loads those roots
// (docs/decisions/1162-the-page-shell-in-few-files.md).
import type { Plugin } from "vite";

export type ShellLayer = {
  /** The chunk's name. */
  name: string;
  /** Modules whose static imports the layer takes (resolved ids). */
  roots: string[];
};

export function shellChunks(layers: ShellLayer[]) {
  // Filled at the end of the client build's module graph, read when the
  // bundler places modules in chunks (after it).
  const imports = new Map<string, readonly string[]>();
  // Each layer's modules, worked out once, on the first question.
  let members: Set<string>[] | null = null;
  const plugin: Plugin = {
    name: "fairshake:shell-chunks",
    applyToEnvironment: (environment) => environment.name === "client",
    buildEnd() {
      imports.clear();
      members = null;
      for (const id of this.getModuleIds())
        imports.set(id, this.getModuleInfo(id)?.importedIds ?? []);
      // A root renamed or moved would leave its layer empty, and the pages
      // back in dozens of files without a word: the build stops instead.
      const ids = [...imports.keys()];
      for (const root of layers.flatMap((layer) => layer.roots))
        if (!ids.some((id) => isModuleOf(id, root)))
          this.error(`shell-chunks: ${root} is not in the client build`);
    },
  };

  function layerMembers(index: number): Set<string> {
    members ??= membersOfLayers(layers, imports);
    return members[index] ?? new Set();
  }

  // Each layer in two chunks: its packages, which change only with an
  // upgrade and stay in the browser's cache across deploys, and the app's
  // own code. An earlier layer wins a module both would take.
  const isPackage = (id: string) => id.includes("/node_modules/");
  const groups = layers.flatMap((layer, index) => [
    {
      name: `${layer.name}-packages`,
      priority: 2 * (layers.length - index),
      test: (id: string) =>
        imports.size > 0 && isPackage(id) && layerMembers(index).has(id),
    },
    {
      name: layer.name,
      priority: 2 * (layers.length - index) - 1,
      test: (id: string) => imports.size > 0 && layerMembers(index).has(id),
    },
  ]);
  return { plugin, groups };
}

// A route module is in the graph twice: as the file, and as the route entry
// React Router makes of it (the file's path with a query).
const isModuleOf = (id: string, file: string) =>
  id === file || id.startsWith(`${file}?`);

function membersOfLayers(
  layers: ShellLayer[],
  imports: Map<string, readonly string[]>,
): Set<string>[] {
  const taken = new Set<string>();
  return layers.map((layer) => {
    const roots = new Set(
      [...imports.keys()].filter((id) =>
        layer.roots.some((root) => isModuleOf(id, root)),
      ),
    );
    const found = new Set<string>();
    const queue = [...roots].flatMap((root) => imports.get(root) ?? []);
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      // What an earlier layer already took stays there.
      if (found.has(id) || taken.has(id) || roots.has(id)) continue;
      found.add(id);
      queue.push(...(imports.get(id) ?? []));
    }
    for (const id of found) taken.add(id);
    return found;
  });
}
