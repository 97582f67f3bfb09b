// Brotli, as the server sends it: one setting for what the compression
// middleware streams (server.ts) and for the pages compressed here.
import zlib from "node:zlib";

/**
 * Quality 4 (compression's own default) with a 256 KB window
 * (BROTLI_PARAM_LGWIN 18) instead of 4 MB (22): no answer comes near
 * 256 KB, and setting up the 4 MB window cost ~3 ms of CPU and megabytes
 * of memory per answer (docs/decisions/0802).
 */
export const BROTLI_PARAMS = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
  [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
};

/**
 * A whole HTML document, brotli-compressed in one call, when the browser
 * takes brotli (its Accept-Encoding, as the middleware would read it). The middleware would stream it through zlib instead: the
 * same bytes, but a stream, a thread-pool task and a flush per answer cost
 * 0.2–0.3 ms of CPU for a 14 KB page against ~0.1 ms for one synchronous
 * call (docs/decisions/0833). The page is rendered whole before it is sent
 * (entry.server.tsx), so there is nothing to stream. Any other encoding is
 * left to the middleware, which leaves an answer with a Content-Encoding
 * alone.
 */
export function encodeDocument(
  html: string,
  acceptEncoding: string | null,
  headers: Headers,
): string | Uint8Array<ArrayBuffer> {
  headers.append("Vary", "Accept-Encoding");
  if (!prefersBrotli(acceptEncoding ?? undefined)) return html;
  const body = zlib.brotliCompressSync(html, {
    params: {
      ...BROTLI_PARAMS,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(html),
    },
  });
  headers.set("Content-Encoding", "br");
  // zlib's result owns its own ArrayBuffer (never a shared pool).
  return new Uint8Array(
    body.buffer as ArrayBuffer,
    body.byteOffset,
    body.byteLength,
  );
}

/**
 * Whether the compression middleware would answer this Accept-Encoding with
 * brotli: its choice among br, gzip, deflate and identity (negotiator 0.6,
 * which compression 1.8 uses) is the highest quality, ties going to br. An
 * encoding takes the quality of its own entry, else of `*`; identity, when
 * not named, takes the lowest quality named. No header is no compression.
 * Express's `req.acceptsEncodings` is not that choice: it breaks ties by the
 * header's order, and browsers send "gzip, deflate, br, zstd".
 */
export function prefersBrotli(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  const entries: { name: string; q: number }[] = [];
  let lowest = 1;
  for (const part of acceptEncoding.split(",")) {
    const match = /^\s*([^\s;]+)\s*(?:;(.*))?$/.exec(part.trim());
    if (!match) continue;
    let q = 1;
    for (const param of (match[2] ?? "").split(";")) {
      const [key, value] = param.trim().split("=");
      if (key === "q") {
        q = parseFloat(value ?? "");
        break;
      }
    }
    entries.push({ name: match[1]!.toLowerCase(), q });
    lowest = Math.min(lowest, q || 1);
  }
  if (!entries.some((e) => e.name === "identity"))
    entries.push({ name: "identity", q: lowest });
  const quality = (name: string) => {
    const own = entries.filter((e) => e.name === name);
    const pool = own.length ? own : entries.filter((e) => e.name === "*");
    return Math.max(0, ...pool.map((e) => e.q));
  };
  const br = quality("br");
  // NaN (a malformed q) is "not acceptable", for br as for the others.
  return (
    br > 0 && ["gzip", "deflate", "identity"].every((x) => !(quality(x) > br))
  );
}
