// app/routes.ts as a server build's route table, and paths that probe it
// (odd spellings, data requests, the /api side), for the tests of
// app/framework/route-pattern.ts and app/framework/route-split.ts.
import type { ServerBuild } from "react-router";
import routes from "~/routes";

type Entry = {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: Entry[];
};

/** app/routes.ts as a server build's route table, under a root route. */
export function routeTable(): ServerBuild["routes"] {
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

/**
 * The same table with each route's real module (its `handle`, whether it
 * has an action): what the route traits are read from. Importing every
 * route module takes seconds: once per test file.
 */
export async function routeTableWithModules(): Promise<ServerBuild["routes"]> {
  const table = routeTable();
  const files = new Map<string, string>();
  const walk = (entries: Entry[]) => {
    for (const entry of entries) {
      files.set(entry.id ?? entry.file.replace(/\.tsx?$/, ""), entry.file);
      if (entry.children) walk(entry.children);
    }
  };
  walk(routes as Entry[]);
  for (const [id, file] of files)
    (table[id] as { module: unknown }).module = await import(
      /* @vite-ignore */ `../../app/${file}`
    );
  (table.root as { module: unknown }).module = await import("~/root");
  return table;
}

export const SAMPLE_PATHS = [
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
  "/API/bets",
  "/Api/user/",
  "/%61pi/bets",
  "/api/bets.data",
  "/api/bets/1/share-image",
  "/api/financial-history.csv",
  "/nothing",
  "/nothing/at/all",
  "/_.data",
  "/_root.data",
  "/_root",
  "/my-bets/_.data",
  "/api/bets/_.data",
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
