import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, encodeDocument } from "./compression.server";

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
