// The join link's QR code as inline SVG, rendered on the server so it needs
// no JavaScript. A bet's join URL never changes, so each is drawn once. The
// library loads with the first code drawn, not with the server.

const CACHE_LIMIT = 500;
const cache = new Map<string, Promise<string>>();

export function qrCodeSvg(url: string): Promise<string> {
  let svg = cache.get(url);
  if (!svg) {
    svg = import("qrcode").then(({ default: QRCode }) =>
      QRCode.toString(url, { type: "svg", margin: 1, width: 176 }),
    );
    cache.set(url, svg);
    // Forget the oldest entry past the limit (Maps iterate in insertion order).
    if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    svg.catch(() => cache.delete(url));
  }
  return svg;
}
