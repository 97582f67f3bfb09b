import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  acceptsGzip,
  encodeDocument,
  gzipLevelFor,
} from "./compression.server";

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br, zstd", true], // Chrome, Edge
    ["gzip, deflate, br", true], // Firefox, Safari
    ["GZIP", true],
    ["br;q=1, gzip;q=0.1", true], // taken, if not the favourite
    ["*", true],
    ["br, *;q=0.5", true],
    ["gzip ; q=0.8", true],
    ["br", false],
    ["identity", false],
    ["gzip;q=0", false],
    ["gzip;q=0, *", false], // its own entry wins over *
    ["*;q=0", false],
    ["gzip;q=abc", false], // a malformed quality is not a yes
    ["x-gzip", false],
    ["", false],
    [null, false], // no header: no compression at all
  ])("%s → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe("encodeDocument", () => {
  const html = `<!DOCTYPE html><html><body>${"<p>Lakers win tonight</p>".repeat(200)}</body></html>`;

  it("compresses a page whole with gzip, and says so", () => {
    const headers = new Headers({ "Content-Type": "text/html" });
    const body = encodeDocument(html, "gzip, deflate, br, zstd", headers);
    expect(typeof body).not.toBe("string");
    expect(headers.get("Content-Encoding")).toBe("gzip");
    expect(headers.get("Vary")).toBe("Accept-Encoding");
    const bytes = Buffer.from(body as Uint8Array);
    expect(bytes.length).toBeLessThan(html.length / 10);
    expect(zlib.gunzipSync(bytes).toString()).toBe(html);
  });

  it("leaves the page to the middleware for a client that takes no gzip", () => {
    for (const acceptEncoding of ["br", "identity", null]) {
      const headers = new Headers();
      expect(encodeDocument(html, acceptEncoding, headers)).toBe(html);
      expect(headers.get("Content-Encoding")).toBeNull();
      expect(headers.get("Vary")).toBe("Accept-Encoding");
    }
  });
});

describe("gzipLevelFor (docs/decisions/archive/1058-gzip-level-by-page-size.md)", () => {
  // Distinct rows, so that level 3 and level 6 come out at different sizes.
  const page = (kb: number) =>
    Array.from(
      { length: Math.ceil((kb * 1024) / 40) },
      (_, i) => `<li data-i="${i}">Bet #${(i * 7919) % 10007}</li>`,
    )
      .join("")
      .slice(0, kb * 1024);

  const sentBytes = (html: string) =>
    Buffer.from(encodeDocument(html, "gzip", new Headers()) as Uint8Array);
  const atLevel = (html: string, level: number) =>
    zlib.gzipSync(html, { level }).length;

  it("a page far under the first round trip is compressed fast", () => {
    const html = page(18); // /bet/{id} for a returning visitor
    expect(gzipLevelFor(html)).toBe(3);
    const sent = sentBytes(html);
    expect(sent.length).toBe(atLevel(html, 3));
    expect(zlib.gunzipSync(sent).toString()).toBe(html);
  });

  it("a first visit's page, near the first round trip, at zlib's default", () => {
    const html = page(54); // /bet/{id} with the stylesheet inline
    expect(gzipLevelFor(html)).toBe(6);
    expect(sentBytes(html).length).toBe(atLevel(html, 6));
    expect(atLevel(html, 6)).toBeLessThan(atLevel(html, 3));
  });
});
