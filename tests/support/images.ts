// Test images: real ones made with sharp, and a hand-made PNG whose header
// claims huge dimensions (a decompression bomb in a few hundred bytes).
import sharp from "sharp";
import zlib from "node:zlib";

export function solidImage(
  width: number,
  height: number,
  format: "png" | "jpeg" = "png",
) {
  const image = sharp({
    create: { width, height, channels: 3, background: "#047857" },
  });
  return (format === "png" ? image.png() : image.jpeg()).toBuffer();
}

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG header declaring width×height (grey, 8-bit) over a tiny body. */
export function pngBomb(width = 20_000, height = 20_000) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
