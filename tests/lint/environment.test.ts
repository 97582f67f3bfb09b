// Only app/utils/env.server.ts reads the environment (eslint.config.js): this
// proves that lint refuses a read anywhere else in the app and the server,
// and lets the module itself and the tests through.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function envErrors(code: string, filePath: string) {
  const [result] = await eslint.lintText(`${code}\n`, { filePath });
  return (result?.messages ?? []).filter(
    (m) =>
      m.ruleId === "no-restricted-properties" ||
      m.ruleId === "no-restricted-syntax",
  );
}

const READ = "export const port = process.env.PORT;";

describe("the environment is read in one place", () => {
  it.each([
    { at: "app/models/lint-fixture.server.ts", code: READ },
    { at: "app/routes/lint-fixture.tsx", code: READ },
    {
      at: "app/utils/lint-fixture.server.ts",
      code: "const { env } = process;",
    },
    { at: "server/lint-fixture.ts", code: READ },
    { at: "server.ts", code: READ },
    {
      at: "server/lint-fixture.ts",
      code: 'import { env } from "node:process";\nexport const port = env.PORT;',
    },
  ])("refuses a read at $at: $code", async ({ at, code }) => {
    const errors = await envErrors(code, at);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.severity).toBe(2);
  });

  it.each([
    { at: "app/utils/env.server.ts", code: READ },
    { at: "app/models/lint-fixture.server.test.ts", code: READ },
    { at: "tests/support/lint-fixture.ts", code: READ },
  ])("allows a read at $at", async ({ at, code }) => {
    expect(await envErrors(code, at)).toEqual([]);
  });
});
