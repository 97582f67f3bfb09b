// The join link's QR code as inline SVG, rendered on the server so it needs
// no JavaScript. A bet's join URL never changes, so each is drawn once.
import QRCode from "qrcode";

const CACHE_LIMIT = 500;
const cache = new Map<string, Promise<string>>();

export function qrCodeSvg(url: string): Promise<string> {
  let svg = cache.get(url);
  if (!svg) {
    svg = QRCode.toString(url, { type: "svg", margin: 1, width: 176 });
    cache.set(url, svg);
    // Forget the oldest entry past the limit (Maps iterate in insertion order).
    if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    svg.catch(() => cache.delete(url));
  }
  return svg;
}
