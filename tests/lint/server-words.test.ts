// A refusal the model words in English reaches a page in the page's
// language (app/framework/page-words.server.ts): this finds the refusals
// written in the model, domain and page code (a DomainError's message, a
// policy's `message`, a field's error, a schema's message) and fails on one
// the `server` catalogs have no words for. The /api keeps English, so
// what only the /api can answer is left out (API_ONLY).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "~/framework/catalogs.server";
import { wordsIn } from "~/framework/page-words.server";
import { LANGUAGES } from "~/domain/language";

const APP = path.resolve(__dirname, "../../app");
const FOLDERS = [
  "models",
  "domain",
  "framework",
  "pipeline",
  "routes",
  "utils",
];
/** Pages word their own screens (`useT`, `serverT`): their server modules only. */
const isRefusalSource = (file: string) =>
  !file.includes(`${path.sep}routes${path.sep}`) || /\.server\.ts$/.test(file);

/** Answered by the /api alone, or never shown to a person. */
const API_ONLY = new Set([
  "Must be true or false.",
  "No such subscription.",
  "The subscription's keys are not valid.",
  "This push service is not one Fairshake sends to.",
  "Unknown notification kind or channel.",
  "Request body is too large (16 KB at most)",
  "Invalid idempotency key.",
  "Could not draw a unique bet code",
  "Request body must be a JSON object",
  "Request body must be valid JSON",
  "Method not allowed",
  "Invalid signature",
  "Content-Type must be application/json",
  // Names and placeholders a page draws with its own words, not refusals.
  "Deleted user",
  // Written by the door before any route, and so before the page's
  // language is known (a plain page, like the door's 413).
  "The server is busy with other uploads. Please try again in a moment.",
]);

const REFUSALS = [
  /\b(?:invalid|forbidden|conflict|notFound|refusedWith)\(\s*"([^"]+)"/g,
  /new DomainError\(\s*\d+,\s*"([^"]+)"/g,
  /\bmessage:\s*"([^"]+)"/g,
  /\b\w+:\s*\[\s*"([^"]+)"\s*\]/g,
  /\.(?:min|max|regex|email|url|refine)\([^()"]*"([^"]+)"/g,
  /\bconst [A-Z][A-Z_]+\s*=\s*"([^"]+)"/g,
];

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!full.includes(`${path.sep}routes${path.sep}api`)) walk(full);
      } else if (
        /\.tsx?$/.test(entry.name) &&
        !/\.test\.tsx?$/.test(entry.name) &&
        isRefusalSource(full)
      )
        files.push(full);
    }
  };
  for (const folder of FOLDERS) walk(path.join(APP, folder));
  return files;
}

/** The refusals the source writes, with where. */
export function refusalsIn(files: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files) {
    const source = fs.readFileSync(file, "utf8");
    for (const pattern of REFUSALS)
      for (const m of source.matchAll(pattern)) {
        const words = m[1]!;
        if (/^[A-Z]/.test(words) && words.includes(" "))
          found.set(words, path.relative(APP, file));
      }
  }
  return found;
}

describe("server words", () => {
  const refusals = refusalsIn(sourceFiles());

  it("finds the model's refusals", () => {
    expect(refusals.get("Only the bet creator can settle this bet")).toBe(
      "models/settlements/settlement-rules.server.ts",
    );
    expect(refusals.size).toBeGreaterThan(60);
  });

  it.each(LANGUAGES.filter((l) => l !== "en"))(
    "every refusal a page can show has words in %s",
    (language) => {
      const untranslated = [...refusals]
        .filter(([words]) => !API_ONLY.has(words))
        .filter(([words]) => wordsIn(language, words) === words)
        .map(([words, file]) => `${file}: ${words}`);
      expect(untranslated).toEqual([]);
    },
  );

  it("reads a template's parts back into the translation", () => {
    expect(wordsIn("de", "Amount must be at least 5 €.")).toBe(
      "Der Betrag muss mindestens 5 € sein.",
    );
    expect(wordsIn("pt-BR", "Write one thousand as 1.000 or 1000.")).toBe(
      "Escreva mil como 1.000 ou 1000.",
    );
    expect(wordsIn("es", "Words no catalog has")).toBe("Words no catalog has");
    expect(wordsIn("en", "Bet not found")).toBe("Bet not found");
  });

  it("writes each English key as its own words", () => {
    const wrong = Object.entries(CATALOGS.en).filter(
      ([key, words]) => key.startsWith("server.") && key !== `server.${words}`,
    );
    expect(wrong).toEqual([]);
  });
});
