// The model domains are layered (docs/architecture.md#model-domains):
// eslint.config.js refuses an import up or across the ranks, and
// tests/lint/layers.test.ts proves that rule on fixtures. This test checks
// the rule names every folder of app/models/, and reads the code as it
// stands (dynamic imports included, which lint does not see): every import
// between two domains goes down, so no two domains import each other.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Plain JavaScript: imported through a variable so TypeScript leaves it be.
const ESLINT_CONFIG = "../../eslint.config.js";
const { modelDomainRanks } = (await import(
  /* @vite-ignore */ ESLINT_CONFIG
)) as {
  modelDomainRanks: () => string[][];
};

const MODELS = "app/models";
const rankOf = new Map(
  modelDomainRanks().flatMap((rank, i) => rank.map((d) => [d, i] as const)),
);
const folders = fs
  .readdirSync(MODELS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const SPECIFIER = /(?:from\s+|import\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

/** The model domain a specifier in `file` points into, if any. */
function domainOf(file: string, specifier: string): string | undefined {
  let target: string;
  if (specifier.startsWith("~/")) target = path.join("app", specifier.slice(2));
  else if (specifier.startsWith("."))
    target = path.join(path.dirname(file), specifier);
  else return undefined;
  const [domain, ...rest] = path.relative(MODELS, target).split(path.sep);
  return domain && domain !== ".." && rest.length > 0 ? domain : undefined;
}

/** Every import from one domain into another (tests are not a layer). */
function domainImports() {
  const found: { from: string; to: string; at: string }[] = [];
  for (const from of folders)
    for (const name of fs.readdirSync(path.join(MODELS, from), {
      recursive: true,
      encoding: "utf8",
    })) {
      if (!/\.tsx?$/.test(name) || /\.test\.tsx?$/.test(name)) continue;
      const file = path.join(MODELS, from, name);
      for (const [, specifier] of fs
        .readFileSync(file, "utf8")
        .matchAll(SPECIFIER)) {
        const to = domainOf(file, specifier!);
        if (to && to !== from)
          found.push({ from, to, at: `${file} → ${specifier}` });
      }
    }
  return found;
}

/**
 * Every specifier in app/models/ (tests too) that reaches a model through
 * the `~/models/` alias: one import style across the domains, the one most
 * of them used, relative (`./x.server` in a domain, `../<domain>/x.server`
 * across), so a domain's imports of its neighbours read the same everywhere.
 */
function aliasedModelImports() {
  const found: string[] = [];
  for (const name of fs.readdirSync(MODELS, {
    recursive: true,
    encoding: "utf8",
  })) {
    if (!/\.tsx?$/.test(name)) continue;
    const file = path.join(MODELS, name);
    const text = fs.readFileSync(file, "utf8");
    for (const [, specifier] of text.matchAll(
      /(?:from\s+|import\s*\(\s*|vi\.mock\(\s*)["'](~\/models\/[^"']+)["']/g,
    ))
      found.push(`${file} → ${specifier}`);
  }
  return found;
}

describe("model domains", () => {
  it("names every folder of app/models/ in eslint.config.js", () => {
    expect([...rankOf.keys()].sort()).toEqual([...folders].sort());
  });

  it("imports only from a lower rank", () => {
    const upOrAcross = domainImports().filter(
      ({ from, to }) => (rankOf.get(to) ?? -1) >= (rankOf.get(from) ?? -1),
    );
    expect(upOrAcross.map(({ at }) => at)).toEqual([]);
  });

  it("has no two domains that import each other", () => {
    const edges = new Set(
      domainImports().map(({ from, to }) => `${from}→${to}`),
    );
    const twoWay = [...edges].filter((edge) => {
      const [from, to] = edge.split("→");
      return from! < to! && edges.has(`${to}→${from}`);
    });
    expect(twoWay).toEqual([]);
  });

  it("import each other by relative paths, never through ~/models/", () => {
    expect(aliasedModelImports()).toEqual([]);
  });
});
