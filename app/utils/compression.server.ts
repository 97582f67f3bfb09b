// How the server compresses: brotli's setting for what the compression
// middleware streams (server/serve.ts), and the pages, compressed here whole.
import zlib from "node:zlib";

/**
 * Quality 4 (compression's own default) with a 256 KB window
 * (BROTLI_PARAM_LGWIN 18) instead of 4 MB (22): no answer comes near
 * 256 KB, and setting up the 4 MB window cost CPU and megabytes of memory
 * per answer (measured in docs/decisions/archive/0802-server-cpu-per-request.md).
 */
export const BROTLI_PARAMS = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
  [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
};

/**
 * A whole HTML document, gzip-compressed in one call, when the browser takes
 * gzip (docs/decisions/archive/0836-pages-as-gzip.md). The page is rendered whole before it is sent
 * (entry.server.tsx), so there is nothing to stream: the compression
 * middleware's stream, thread-pool task and flush per answer cost more CPU
 * than one synchronous call (measured in docs/decisions/archive/0833-pages-compressed-whole.md). gzip rather
 * than brotli, although browsers take both: on these pages brotli came out
 * a few bytes smaller for clearly more CPU (measured in docs/decisions/archive/0836-pages-as-gzip.md). A page for a client that takes no gzip is left to the middleware
 * (brotli if it takes only that, else nothing), which leaves an answer that
 * has a Content-Encoding alone.
 */
export function encodeDocument(
  html: string,
  acceptEncoding: string | null,
  headers: Headers,
): string | Uint8Array<ArrayBuffer> {
  headers.append("Vary", "Accept-Encoding");
  if (!acceptsGzip(acceptEncoding)) return html;
  const body = zlib.gzipSync(html, { level: gzipLevelFor(html) });
  headers.set("Content-Encoding", "gzip");
  // zlib's result owns its own ArrayBuffer (never a shared pool).
  return new Uint8Array(
    body.buffer as ArrayBuffer,
    body.byteOffset,
    body.byteLength,
  );
}

/**
 * How hard a page is compressed (docs/decisions/archive/1058-gzip-level-by-page-size.md).
 * What a reader feels is whether the page arrives in the first round trip
 * (about 14 KB); what the server pays is zlib's time. A page over
 * FIRST_FLIGHT_HTML (a first visit, its stylesheet inline: ~50 KB, ~13 KB
 * compressed) is compressed at zlib's default, every byte counted. A smaller
 * one comes out at a third of that and gets level 3, zlib's fast matcher:
 * half the CPU, about 4 % more bytes.
 */
export function gzipLevelFor(html: string): number {
  return html.length > FIRST_FLIGHT_HTML ? 6 : 3;
}
const FIRST_FLIGHT_HTML = 32 * 1024;

/**
 * Whether this Accept-Encoding takes gzip: its own entry's quality, else
 * that of `*`, is above 0 (RFC 9110 §12.5.3). A server may send any coding
 * the client takes, not only its favourite. No header, or a malformed
 * quality, is "no".
 */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  let own: number | null = null;
  let any: number | null = null;
  for (const part of acceptEncoding.split(",")) {
    const [coding = "", ...params] = part.split(";");
    const name = coding.trim().toLowerCase();
    if (name !== "gzip" && name !== "*") continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split("=");
      if (key?.trim().toLowerCase() === "q") q = Number(value?.trim());
    }
    if (Number.isNaN(q)) q = 0;
    if (name === "gzip") own = Math.max(own ?? 0, q);
    else any = Math.max(any ?? 0, q);
  }
  return (own ?? any ?? 0) > 0;
}
