import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { encodePalettePng } from "./palette-png.server";
import {
  drawShareCard,
  renderShareImage,
} from "~/models/bets/share-image.server";

/** Decodes a PNG to straight RGBA with a decoder that is not ours. */
async function decode(png: Buffer) {
  const { data, info } = await sharp(png)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Premultiplies straight RGBA, as resvg hands its pixels over. */
function premultiplied(straight: number[]) {
  const out = new Uint8Array(straight.length);
  for (let i = 0; i < straight.length; i += 4) {
    const a = straight[i + 3]!;
    for (let c = 0; c < 3; c++)
      out[i + c] = Math.round((straight[i + c]! * a) / 255);
    out[i + 3] = a;
  }
  return out;
}

describe("encodePalettePng", () => {
  it("writes a picture of at most 256 colours exactly, transparency included", async () => {
    // 3×2: opaque colours, a half-transparent one, a fully transparent one.
    const straight = [
      ...[255, 0, 0, 255],
      ...[0, 128, 255, 255],
      ...[255, 255, 255, 255],
      ...[6, 78, 59, 255],
      ...[255, 128, 64, 128],
      ...[0, 0, 0, 0],
    ];
    const png = encodePalettePng(premultiplied(straight), 3, 2);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(png[25]).toBe(3); // colour type: palette
    const decoded = await decode(png);
    expect(decoded.width).toBe(3);
    expect(decoded.height).toBe(2);
    expect([...decoded.data]).toEqual(straight);
  });

  it("keeps the 256 most used colours of a larger set and draws each other pixel in the nearest", async () => {
    // 300 distinct greys: 0..255 used twice, then 44 near-duplicates used once.
    const straight: number[] = [];
    for (let v = 0; v < 256; v++) straight.push(v, v, v, 255, v, v, v, 255);
    for (let v = 0; v < 44; v++) straight.push(v * 5, v * 5, v * 5 + 1, 255);
    const pixels = straight.length / 4;
    const png = encodePalettePng(premultiplied(straight), pixels, 1);
    const { data } = await decode(png);
    // The 512 pixels of kept colours are exact…
    expect([...data.subarray(0, 512 * 4)]).toEqual(straight.slice(0, 512 * 4));
    // …and each other one is drawn in its nearest kept grey, one step away.
    for (let v = 0; v < 44; v++) {
      const at = (512 + v) * 4;
      expect([...data.subarray(at, at + 4)]).toEqual([
        v * 5,
        v * 5,
        v * 5,
        255,
      ]);
    }
  });

  it("refuses pixels that do not match the size", () => {
    expect(() => encodePalettePng(new Uint8Array(8), 3, 1)).toThrow(
      /do not match/,
    );
  });
});

describe("the share card as a palette PNG", () => {
  const bet = {
    id: 1,
    code: "S6FP42",
    title: "Lakers win tonight — or the Celtics do, whichever comes first",
    amountCents: 2000,
    updatedAt: new Date(0),
  };

  for (const width of [1200, 720] as const) {
    it(`at ${width} px: exactly the picture resvg drew, in under half its bytes`, async () => {
      const drawn = await drawShareCard(bet, width);
      const png = await renderShareImage(bet, width);
      const decoded = await decode(png);
      expect(decoded.width).toBe(drawn.width);
      expect(decoded.height).toBe(drawn.height);
      // The card is opaque, so resvg's premultiplied pixels are its colours.
      expect(decoded.data.equals(Buffer.from(drawn.pixels))).toBe(true);
      expect(png.length).toBeLessThan(drawn.asPng().length / 2);
    });
  }
});
