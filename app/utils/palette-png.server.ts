// A palette ("indexed colour") PNG encoder for the share card, in plain
// Node: zlib for the compression and the chunk checksums, no native image
// library. The card is a few flat colours and the anti-aliased edges between
// them, which fit in a palette of at most 256 colours; resvg writes it as
// 8-bit RGBA, so the same picture went out at four bytes a pixel instead of one.
// On the bet page that image is the largest paint, so its bytes are the
// page's LCP on a slow link (docs/decisions/0812, 0832).
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

/**
 * Encodes `width`×`height` pixels of premultiplied RGBA (resvg's
 * `RenderedImage.pixels`) as an 8-bit palette PNG.
 *
 * A picture of at most 256 colours comes out exactly as it went in. One with
 * more keeps its 256 most frequent colours and draws every other pixel in
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
  // Straight (not premultiplied) RGBA, packed 0xRRGGBBAA, and how often each is used.
  const colours = new Uint32Array(width * height);
  const uses = new Map<number, number>();
  for (let p = 0, i = 0; p < colours.length; p++, i += 4) {
    const a = pixels[i + 3]!;
    const straight = (c: number) =>
      a === 255 ? c : a === 0 ? 0 : Math.min(255, Math.round((c * 255) / a));
    const colour =
      ((straight(pixels[i]!) << 24) |
        (straight(pixels[i + 1]!) << 16) |
        (straight(pixels[i + 2]!) << 8) |
        a) >>>
      0;
    colours[p] = colour;
    uses.set(colour, (uses.get(colour) ?? 0) + 1);
  }
  const palette = [...uses.entries()]
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, MAX_COLOURS)
    .map(([colour]) => colour);
  const indexOf = new Map(palette.map((colour, i) => [colour, i]));

  // Each row starts with its filter byte: 0, none (the usual best for palettes).
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1);
    for (let x = 0; x < width; x++) {
      const colour = colours[y * width + x]!;
      let index = indexOf.get(colour);
      if (index === undefined) {
        index = nearest(palette, colour);
        indexOf.set(colour, index);
      }
      rows[row + 1 + x] = index;
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
    chunk("IDAT", zlib.deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
