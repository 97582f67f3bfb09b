// A palette ("indexed colour") PNG encoder for the share card, in plain
// Node: zlib for the compression and the chunk checksums, no native image
// library. The card is a few flat colours and the anti-aliased edges between
// them, which fit in a palette of at most 256 colours; resvg writes it as
// 8-bit RGBA, so the same picture went out at four bytes a pixel instead of one.
// It is what every link preview fetches and the largest thing on a bet
// page's first screen: far fewer bytes for both (measured in
// docs/decisions/archive/0832-share-card-as-a-palette-png.md; the bet page's preview size in docs/decisions/archive/0812-bet-page-share-preview-at-its-size.md).
import zlib from "node:zlib";

const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const MAX_COLOURS = 256;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(type)), 0);
  return Buffer.concat([head, data, crc]);
}

/** RGBA channels of a colour packed as 0xRRGGBBAA. */
const channel = (colour: number, shift: number) => (colour >>> shift) & 0xff;

/** A premultiplied colour (as resvg hands it over) as straight RGBA. */
function straight(premultiplied: number): number {
  const a = premultiplied & 0xff;
  if (a === 255) return premultiplied;
  if (a === 0) return 0;
  const c = (shift: number) =>
    Math.min(255, Math.round((channel(premultiplied, shift) * 255) / a));
  return ((c(24) << 24) | (c(16) << 16) | (c(8) << 8) | a) >>> 0;
}

/** The palette entry nearest to a colour, by squared distance over R, G, B, A. */
function nearest(palette: number[], colour: number): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let i = 0; i < palette.length; i++) {
    let distance = 0;
    for (const shift of [24, 16, 8, 0]) {
      const d = channel(colour, shift) - channel(palette[i]!, shift);
      distance += d * d;
    }
    if (distance < bestDistance) {
      bestDistance = distance;
      best = i;
    }
  }
  return best;
}

/** Pixel `p` of premultiplied RGBA bytes, packed 0xRRGGBBAA. */
const pixelAt = (pixels: Uint8Array, p: number) =>
  ((pixels[p * 4]! << 24) |
    (pixels[p * 4 + 1]! << 16) |
    (pixels[p * 4 + 2]! << 8) |
    pixels[p * 4 + 3]!) >>>
  0;

/**
 * Encodes `width`×`height` pixels of premultiplied RGBA (resvg's
 * `RenderedImage.pixels`) as an 8-bit palette PNG.
 *
 * A picture of at most 256 distinct pixels comes out exactly as it went in.
 * One with more keeps its 256 most frequent and draws every other pixel in
 * the nearest of them: for a card of flat colours those are the rarest
 * shades of an edge's anti-aliasing, one step from a kept one.
 */
export function encodePalettePng(
  pixels: Uint8Array,
  width: number,
  height: number,
): Buffer {
  if (pixels.length !== width * height * 4)
    throw new Error("encodePalettePng: pixels do not match the size");
  const count = width * height;
  // How often each pixel value is used. A card is mostly long runs of one
  // colour, so a run is counted once, not pixel by pixel.
  const uses = new Map<number, number>();
  let runOf = pixelAt(pixels, 0);
  let run = 0;
  for (let p = 0; p < count; p++) {
    const pixel = pixelAt(pixels, p);
    if (pixel === runOf) {
      run++;
      continue;
    }
    uses.set(runOf, (uses.get(runOf) ?? 0) + run);
    runOf = pixel;
    run = 1;
  }
  uses.set(runOf, (uses.get(runOf) ?? 0) + run);
  const kept = [...uses.entries()]
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, MAX_COLOURS)
    .map(([pixel]) => pixel);
  const palette = kept.map(straight);
  const indexOf = new Map(kept.map((pixel, i) => [pixel, i]));

  // Each row starts with its filter byte: 0, none (the usual best for palettes).
  const rows = Buffer.alloc((width + 1) * height);
  let last = -1;
  let lastIndex = 0;
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1);
    for (let x = 0; x < width; x++) {
      const pixel = pixelAt(pixels, y * width + x);
      if (pixel !== last) {
        let index = indexOf.get(pixel);
        if (index === undefined) {
          index = nearest(palette, straight(pixel));
          indexOf.set(pixel, index);
        }
        last = pixel;
        lastIndex = index;
      }
      rows[row + 1 + x] = lastIndex;
    }
  }

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per index
  header[9] = 3; // colour type: palette
  const rgb = Buffer.alloc(palette.length * 3);
  const alpha = Buffer.alloc(palette.length);
  palette.forEach((colour, i) => {
    rgb[i * 3] = channel(colour, 24);
    rgb[i * 3 + 1] = channel(colour, 16);
    rgb[i * 3 + 2] = channel(colour, 8);
    alpha[i] = channel(colour, 0);
  });
  const opaque = alpha.every((a) => a === 255);
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk("IHDR", header),
    chunk("PLTE", rgb),
    ...(opaque ? [] : [chunk("tRNS", alpha)]),
    chunk("IDAT", zlib.deflateSync(rows, { level: 6 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
