// One module graph per process (docs/decisions/1040-one-module-graph.md):
// nothing in the app or the server hides state on globalThis or under a
// registered symbol to survive a second copy of its module. This proves that
// eslint.config.js refuses both, and that no source file uses either today.
import { ESLint } from "eslint";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });
const RULES = new Set(["no-restricted-globals", "no-restricted-properties"]);

async function singletonErrors(code: string, filePath: string) {
  const [result] = await eslint.lintText(`${code}\n`, { filePath });
  return (result?.messages ?? []).filter((m) => RULES.has(m.ruleId ?? ""));
}

const ON_GLOBAL =
  "const shared = globalThis as unknown as { __x?: number[] };\nexport const xs = (shared.__x ??= []);";
const REGISTERED = 'export const KEY = Symbol.for("fairshake.x");';

describe("no module state hides on globalThis or under Symbol.for", () => {
  it.each([
    { at: "app/db/lint-fixture.server.ts", code: ON_GLOBAL },
    { at: "app/framework/lint-fixture.server.ts", code: REGISTERED },
    { at: "app/utils/lint-fixture.server.ts", code: ON_GLOBAL },
    { at: "app/utils/env.server.ts", code: REGISTERED },
    { at: "server/lint-fixture.ts", code: REGISTERED },
    { at: "server/lint-fixture.ts", code: "global.x = 1;" },
    { at: "server.ts", code: ON_GLOBAL },
  ])("refuses at $at: $code", async ({ at, code }) => {
    const errors = await singletonErrors(code, at);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.severity).toBe(2);
  });

  it("leaves a test free to stub a global", async () => {
    expect(
      await singletonErrors(ON_GLOBAL, "app/utils/lint-fixture.server.test.ts"),
    ).toEqual([]);
  });

  it("finds neither in the app's or the server's sources today", () => {
    const sources = ["app", "server"]
      .flatMap((dir) =>
        fs
          .readdirSync(dir, { recursive: true, encoding: "utf8" })
          .map((f) => path.join(dir, f)),
      )
      .concat("server.ts")
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
    const found = sources.filter((f) =>
      /\bglobalThis\b|\bSymbol\.for\b/.test(fs.readFileSync(f, "utf8")),
    );
    expect(found).toEqual([]);
  });
});
