import { describe, expect, it } from "vitest";
import {
  withModuleAfterFirstPaint,
  withoutScriptPreloads,
} from "./script-preloads.server";

const MODULE = `;\nimport * as route0 from "/assets/root-1.js";\nwindow.__reactRouterRouteModules = {"root": route0};\nif (1 <!--2) {}\nimport("/assets/entry.client-2.js");`;
const page = (body: string) =>
  `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/a.js"/><title>t</title></head><body><main>content</main>${body}</body></html>`;

describe("withoutScriptPreloads", () => {
  it("drops the head's modulepreload tags and nothing after </head>", () => {
    const html = page(`<link rel="modulepreload" href="/assets/b.js"/>`);
    const out = withoutScriptPreloads(html);
    expect(out).not.toContain("/assets/a.js");
    expect(out).toContain("/assets/b.js");
  });
});

describe("withModuleAfterFirstPaint", () => {
  const html = page(
    `<script nonce="n0+/=">window.__reactRouterContext = {};</script><script nonce="n0+/=" type="module" async="">${MODULE}</script><script nonce="n0+/=">enqueue()</script>`,
  );
  const out = withModuleAfterFirstPaint(html);

  it("leaves no module script for the parser to run", () => {
    expect(out).not.toMatch(/<script[^>]*type="module"/);
    // Everything else is where it was.
    expect(
      out.replace(/<script nonce="n0\+\/=">\(function[\s\S]*?<\/script>/, ""),
    ).toBe(
      html.replace(
        /<script nonce="n0\+\/=" type="module"[\s\S]*?<\/script>/,
        "",
      ),
    );
  });

  it("inserts the same module, with the same nonce, after a painted frame", () => {
    const starter =
      /<script nonce="n0\+\/=">(\(function[\s\S]*?)<\/script>/.exec(out)?.[1];
    expect(starter).toBeDefined();
    const appended: Record<string, string>[] = [];
    let frame: (() => void) | undefined;
    let timer: (() => void) | undefined;
    const env = {
      document: {
        visibilityState: "visible",
        addEventListener: () => {},
        createElement: () => ({}) as Record<string, string>,
        body: { appendChild: (s: Record<string, string>) => appended.push(s) },
      },
      window: { requestAnimationFrame: true },
      requestAnimationFrame: (f: () => void) => (frame = f),
      setTimeout: (f: () => void) => (timer = f),
    };
    new Function(...Object.keys(env), starter!)(...Object.values(env));
    expect(appended).toEqual([]); // nothing before the frame
    frame!();
    expect(appended).toEqual([]); // nor inside it, before its paint
    timer!();
    expect(appended).toEqual([
      { type: "module", nonce: "n0+/=", textContent: MODULE },
    ]);
  });

  it("writes the module's text with no `<`, so neither `</script>` nor `<!--` can end the script early", () => {
    const starter =
      /<script nonce="n0\+\/=">(\(function[\s\S]*?)<\/script>/.exec(out)?.[1];
    expect(MODULE).toContain("<");
    expect(starter).not.toContain("<");
  });

  it("leaves a page without a module script alone", () => {
    const plain = page("");
    expect(withModuleAfterFirstPaint(plain)).toBe(plain);
  });
});
