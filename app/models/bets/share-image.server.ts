// The 1200×630 link-preview PNG of a bet: satori lays out the card into SVG
// with a font shipped in an npm package, resvg rasterises it, and it goes out
// as a palette PNG (palette-png.server.ts). Rendered PNGs
// are kept in memory by bet id and version, so a crawler storm renders once.
import fs from "node:fs";
import { createRequire } from "node:module";
import { formatMoney, type Currency } from "~/domain/currency";
import type { Language } from "~/domain/language";
import { messagesIn } from "~/messaging/activity-text.server";
import { encodePalettePng } from "~/utils/palette-png.server";

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;

// satori and resvg load on first use, not with the server: loading satori
// alone was about a fifth of a start's CPU, and most processes (and every
// test server) never draw a card.
let renderer: Promise<{
  satori: typeof import("satori").default;
  Resvg: typeof import("@resvg/resvg-js").Resvg;
}> | null = null;
const loadRenderer = () =>
  (renderer ??= Promise.all([import("satori"), import("@resvg/resvg-js")]).then(
    ([satori, resvg]) => ({ satori: satori.default, Resvg: resvg.Resvg }),
  ));

function loadFonts() {
  fonts ??= {
    regular: fs.readFileSync(
      require.resolve("@fontsource/inter/files/inter-latin-400-normal.woff"),
    ),
    bold: fs.readFileSync(
      require.resolve("@fontsource/inter/files/inter-latin-700-normal.woff"),
    ),
  };
  return fonts;
}

type Node = { type: string; props: Record<string, unknown> };
const h = (
  type: string,
  style: Record<string, unknown>,
  children?: unknown,
): Node => ({ type, props: { style, children } });

const CACHE_LIMIT = 200;
const cache = new Map<string, Buffer>();

export type ShareImageInput = {
  id: number;
  code: string;
  title: string;
  amountCents: number;
  /** The bet's; US dollars for callers that name none. */
  currency?: Currency;
  /** The bet's language, which the card is written in; English when none. */
  language?: Language;
  updatedAt: Date;
};

export function shareImageEtag(
  bet: ShareImageInput,
  width: ShareImageWidth = 1200,
) {
  const size = width === 1200 ? "" : `-${width}`;
  // The card changes with its language (the creator may pick another).
  const language =
    !bet.language || bet.language === "en" ? "" : `-${bet.language}`;
  return `"bet-${bet.id}-${bet.updatedAt.getTime()}${language}${size}"`;
}

/**
 * The shipped font is Inter's Latin subset (U+0000–00FF and the punctuation
 * of U+2000–206F, € included): every letter of English, Spanish, German and
 * Portuguese (ä ö ü ß ã õ ç é ñ ¿ ¡ „ “). Other glyphs (emoji) would render
 * as boxes.
 */
function printable(text: string) {
  return [...text]
    .filter((c) => {
      const cp = c.codePointAt(0)!;
      return cp <= 0x24f || (cp >= 0x2000 && cp <= 0x20cf);
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

function truncate(text: string, max: number) {
  const chars = [...printable(text)];
  return chars.length > max
    ? `${chars.slice(0, max - 1).join("")}…`
    : chars.join("");
}

/**
 * The widths served: 1200 for link previews (og:image), 720 for the bet
 * page's own preview, twice the ~360 CSS pixels it takes on a phone and
 * about a third of the bytes. It is the largest thing painted on a bet
 * page's first screen, so its bytes are that page's LCP on a slow link
 * (docs/decisions/archive/0812-bet-page-share-preview-at-its-size.md).
 */
export const SHARE_IMAGE_WIDTHS = [1200, 720] as const;
export type ShareImageWidth = (typeof SHARE_IMAGE_WIDTHS)[number];

export async function renderShareImage(
  bet: ShareImageInput,
  width: ShareImageWidth = 1200,
): Promise<Buffer> {
  const key = `${shareImageEtag(bet, width)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const image = await drawShareCard(bet, width);
  // A palette PNG of the same pixels: far fewer bytes (measured in
  // docs/decisions/archive/0832-share-card-as-a-palette-png.md).
  const png = encodePalettePng(image.pixels, image.width, image.height);
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, png);
  return png;
}

/** The words the card draws, in the bet's language. */
export function shareCardWords(bet: ShareImageInput) {
  const language = bet.language ?? "en";
  return {
    title: truncate(bet.title, 80),
    amount: formatMoney(bet.amountCents, bet.currency ?? "USD", language),
    tagline: messagesIn(language)("sharePage.tagline"),
  };
}

/** The card's pixels (premultiplied RGBA), as resvg draws them. */
export async function drawShareCard(
  bet: ShareImageInput,
  width: ShareImageWidth,
) {
  const { regular, bold } = loadFonts();
  const { satori, Resvg } = await loadRenderer();
  const words = shareCardWords(bet);
  const tree = h(
    "div",
    {
      // Yoga sizes the content box: the padding comes on top.
      width: 1200 - 128,
      height: 630 - 128,
      display: "flex",
      flexDirection: "column",
      justifyContent: "space-between",
      padding: "64px",
      backgroundColor: "#064e3b",
      color: "#ffffff",
      fontFamily: "Inter",
    },
    [
      h(
        "div",
        { display: "flex", fontSize: 32, color: "#a7f3d0" },
        "Fairshake",
      ),
      h(
        "div",
        { display: "flex", fontSize: 64, fontWeight: 700, lineHeight: 1.15 },
        words.title,
      ),
      h(
        "div",
        {
          display: "flex",
          justifyContent: "space-between",
          alignItems: "flex-end",
        },
        [
          h("div", { display: "flex", flexDirection: "column" }, [
            h(
              "div",
              { display: "flex", fontSize: 72, fontWeight: 700 },
              words.amount,
            ),
            h(
              "div",
              { display: "flex", fontSize: 30, color: "#d1fae5" },
              words.tagline,
            ),
          ]),
          h(
            "div",
            {
              display: "flex",
              padding: "16px 28px",
              borderRadius: 16,
              backgroundColor: "#ffffff",
              color: "#064e3b",
              fontSize: 48,
              fontWeight: 700,
              letterSpacing: 6,
            },
            bet.code,
          ),
        ],
      ),
    ],
  );
  const svg = await satori(tree as unknown as React.ReactNode, {
    width: 1200,
    height: 630,
    fonts: [
      { name: "Inter", data: regular, weight: 400, style: "normal" },
      { name: "Inter", data: bold, weight: 700, style: "normal" },
    ],
  });
  return new Resvg(svg, { fitTo: { mode: "width", value: width } }).render();
}

let warmed = false;

/**
 * Satori's first layout parses the fonts and warms its engine, much slower
 * than the layouts after it (no decision record keeps the figure). A
 * crawler reads a bet's page before its og:image, so the first page that
 * shows a share preview warms it, once per process and off any request:
 * the crawler's first image miss is then as fast as the others, and a
 * process that never shows a preview never pays for it. The throwaway card
 * is not cached.
 */
export function warmShareImageRenderer() {
  if (warmed) return;
  warmed = true;
  const sample = {
    id: 0,
    code: "WARMUP",
    title: "Warm-up",
    amountCents: 100,
    updatedAt: new Date(0),
  };
  renderShareImage(sample)
    .then(() => cache.delete(shareImageEtag(sample)))
    .catch((error) => console.error("share image warm-up failed", error));
}
