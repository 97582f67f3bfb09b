// The share card in the bet's language (docs/product-rules.md#languages): its
// words come from that language's catalog, its amount is written that
// language's way, the shipped font has a glyph for every letter the four
// languages use, and a title full of them renders a valid PNG.
import fs from "node:fs";
import { createRequire } from "node:module";
import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/domain/language";
import { CATALOGS } from "~/framework/catalogs.server";
import {
  renderShareImage,
  shareCardWords,
  shareImageEtag,
} from "./share-image.server";

const require = createRequire(import.meta.url);

/** The code points a WOFF font has glyphs for (its cmap, format 4). */
function codePointsOf(file: string): Set<number> {
  const woff = fs.readFileSync(require.resolve(file));
  expect(woff.toString("latin1", 0, 4)).toBe("wOFF");
  const tables = woff.readUInt16BE(12);
  let cmap: Buffer | null = null;
  for (let i = 0; i < tables; i += 1) {
    const at = 44 + i * 20;
    if (woff.toString("latin1", at, at + 4) !== "cmap") continue;
    const offset = woff.readUInt32BE(at + 4);
    const compressed = woff.readUInt32BE(at + 8);
    const original = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compressed);
    cmap = compressed < original ? zlib.inflateSync(raw) : raw;
  }
  if (!cmap) throw new Error("no cmap");
  const points = new Set<number>();
  const subtables = cmap.readUInt16BE(2);
  for (let i = 0; i < subtables; i += 1) {
    const at = 4 + i * 8;
    const platform = cmap.readUInt16BE(at);
    const encoding = cmap.readUInt16BE(at + 2);
    const offset = cmap.readUInt32BE(at + 4);
    if (platform !== 3 || encoding !== 1) continue;
    if (cmap.readUInt16BE(offset) !== 4) continue;
    const segments = cmap.readUInt16BE(offset + 6) / 2;
    const ends = offset + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const ranges = deltas + segments * 2;
    for (let s = 0; s < segments; s += 1) {
      const end = cmap.readUInt16BE(ends + s * 2);
      const start = cmap.readUInt16BE(starts + s * 2);
      const delta = cmap.readInt16BE(deltas + s * 2);
      const rangeOffset = cmap.readUInt16BE(ranges + s * 2);
      for (let c = start; c <= end && c !== 0xffff; c += 1) {
        let glyph: number;
        if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
        else {
          const g = cmap.readUInt16BE(
            ranges + s * 2 + rangeOffset + (c - start) * 2,
          );
          glyph = g === 0 ? 0 : (g + delta) & 0xffff;
        }
        if (glyph !== 0) points.add(c);
      }
    }
  }
  return points;
}

const LETTERS = "äöüÄÖÜßãõâêôçÇéèáíóúñÑ¿¡„“”«»€";
const NBSP = "\u00a0";

describe("the share card in the bet's language", () => {
  it("draws the German catalog's words and writes the amount the German way", () => {
    const words = shareCardWords({
      id: 7,
      code: "ABC123",
      title: "Größe ändern? ¡Sí! Ação, señor",
      amountCents: 100_000,
      currency: "EUR",
      language: "de",
      updatedAt: new Date(0),
    });
    expect(words.tagline).toBe(CATALOGS.de["sharePage.tagline"]);
    expect(words.tagline).not.toBe(CATALOGS.en["sharePage.tagline"]);
    expect(words.amount).toBe(`1.000,00${NBSP}€`);
    expect(words.title).toBe("Größe ändern? ¡Sí! Ação, señor");
    // A card of no language is English, in dollars.
    const english = shareCardWords({
      id: 7,
      code: "ABC123",
      title: "Derby",
      amountCents: 100_000,
      updatedAt: new Date(0),
    });
    expect(english.tagline).toBe("Bet with friends on Fairshake");
    expect(english.amount).toBe("$1,000.00");
  });

  it("has a glyph, in both weights, for every letter of the four languages' card words", () => {
    for (const weight of [400, 700]) {
      const font = codePointsOf(
        `@fontsource/inter/files/inter-latin-${weight}-normal.woff`,
      );
      const text =
        LETTERS +
        LANGUAGES.map((l) => CATALOGS[l]["sharePage.tagline"]).join("") +
        shareCardWords({
          id: 1,
          code: "X",
          title: "",
          amountCents: 123_456,
          currency: "BRL",
          language: "pt-BR",
          updatedAt: new Date(0),
        }).amount;
      const missing = [...new Set(text)].filter(
        (c) => c.trim() && !font.has(c.codePointAt(0)!),
      );
      expect(missing, `missing from Inter ${weight}`).toEqual([]);
    }
  });

  it("renders a title full of accents as a valid PNG, kept apart from the English card", async () => {
    const bet = {
      id: 8,
      code: "ÑAND00",
      title: `Wer gewinnt? Größe, Straße, ação, ¿quién? ¡Olé! ${LETTERS}`,
      amountCents: 100_000,
      currency: "EUR" as const,
      language: "de" as const,
      updatedAt: new Date(0),
    };
    const png = await renderShareImage(bet);
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    const info = await sharp(png).metadata();
    expect([info.width, info.height]).toEqual([1200, 630]);
    const english = await renderShareImage({ ...bet, language: "en" });
    expect(english.equals(png)).toBe(false);
    expect(shareImageEtag(bet)).toBe('"bet-8-0-de"');
    expect(shareImageEtag({ ...bet, language: "en" })).toBe('"bet-8-0"');
    expect(shareImageEtag(bet, 720)).toBe('"bet-8-0-de-720"');
  });
});
