import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeDocument, prefersBrotli } from "./compression.server";

describe("prefersBrotli: the compression middleware's choice", () => {
  it.each([
    ["gzip, deflate, br, zstd", true], // Chrome, Edge
    ["gzip, deflate, br", true], // Firefox, Safari
    ["BR", true],
    ["br;q=0.5", true], // identity, not named, takes the lowest: a tie, to br
    ["gzip;q=0.5, br;q=0.8", true],
    ["*", true], // every one at 1: the tie goes to br
    ["gzip;q=NaN, br", true], // a malformed q is not acceptable
    ["gzip", false],
    ["identity", false],
    ["br;q=0.5, gzip", false],
    ["br;q=0", false],
    ["*, br;q=0", false],
    ["br, identity;q=2", false],
    ["br;q=abc", false],
    ["", false],
    [undefined, false], // no header: no compression at all
  ])("%s → %s", (header, expected) => {
    expect(prefersBrotli(header)).toBe(expected);
  });
});

describe("encodeDocument", () => {
  const html = `<!DOCTYPE html><html><body>${"<p>Lakers win tonight</p>".repeat(200)}</body></html>`;

  it("compresses a page whole with brotli, and says so", () => {
    const headers = new Headers({ "Content-Type": "text/html" });
    const body = encodeDocument(html, "gzip, deflate, br, zstd", headers);
    expect(typeof body).not.toBe("string");
    expect(headers.get("Content-Encoding")).toBe("br");
    expect(headers.get("Vary")).toBe("Accept-Encoding");
    const bytes = Buffer.from(body as Uint8Array);
    expect(bytes.length).toBeLessThan(html.length / 10);
    expect(zlib.brotliDecompressSync(bytes).toString()).toBe(html);
  });

  it("leaves any other encoding to the middleware", () => {
    for (const acceptEncoding of ["gzip", null]) {
      const headers = new Headers();
      expect(encodeDocument(html, acceptEncoding, headers)).toBe(html);
      expect(headers.get("Content-Encoding")).toBeNull();
      expect(headers.get("Vary")).toBe("Accept-Encoding");
    }
  });
});
