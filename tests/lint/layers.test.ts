// The layers are enforced by lint (docs/decisions/0920-layers-by-lint.md):
// this proves that eslint.config.js refuses each forbidden import and lets
// the allowed ones through.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { BAD_IMPORTS, GOOD_IMPORTS } from "./layer-fixtures";

const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(code: string, filePath: string) {
  const [result] = await eslint.lintText(`${code}\n`, { filePath });
  return (result?.messages ?? []).filter(
    (m) => m.ruleId === "no-restricted-imports",
  );
}

describe("layers are enforced by lint", () => {
  it.each(BAD_IMPORTS)("refuses: $why ($at)", async ({ at, code }) => {
    const errors = await layerErrors(code, at);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.severity).toBe(2);
  });

  it.each(GOOD_IMPORTS)("allows: $why ($at)", async ({ at, code }) => {
    expect(await layerErrors(code, at)).toEqual([]);
  });
});
