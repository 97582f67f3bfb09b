// Share links and previews (docs/product-rules.md#private-bets). A private bet's links carry its code:
// whoever holds the link holds the code, and nobody else learns the bet exists.
import type { Currency } from "~/domain/currency";
import { resolveLanguage, type Language } from "~/domain/language";
import { and, eq } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import { bets, users, type Bet } from "~/db/schema";
import { publicOrigin } from "~/utils/env-settings.server";
import { warmShareImageRenderer } from "./share-image.server";
import { canViewBet, codeMatches } from "./bet-access.server";
import { tryCode, type CodeGuesser } from "./code-guesses.server";

type Shareable = Pick<Bet, "id" | "code" | "visibility" | "updatedAt">;

/**
 * The version of a bet's share card, as its image URL carries it: the card
 * is drawn from the bet as of `updatedAt` (the ETag says the same), so a URL
 * with the current version names one image for ever and may be cached so
 * (docs/decisions/archive/0839-versioned-bet-page-preview.md).
 */
export function shareImageVersion(bet: Pick<Bet, "updatedAt">) {
  return bet.updatedAt.getTime().toString(36);
}

export function shareLinks(bet: Shareable, request?: Request) {
  // A page linking to the card is read before the card: warm its renderer.
  warmShareImageRenderer();
  const origin = publicOrigin(request);
  const query = bet.visibility === "private" ? `?code=${bet.code}` : "";
  return {
    shareUrl: `${origin}/share/${bet.id}${query}`,
    joinUrl: `${origin}/join/${bet.code}`,
    // The page's own preview, at 720 px wide (docs/decisions/archive/0812-bet-page-share-preview-at-its-size.md), by
    // version: a repeat view paints it from the browser's cache (docs/decisions/archive/0839-versioned-bet-page-preview.md).
    imagePath: `/api/bets/${bet.id}/share-image?w=720&v=${shareImageVersion(bet)}${query.replace("?", "&")}`,
    // The link preview's image, for crawlers: the product's share-meta URL.
    imageUrl: `${origin}/api/bets/${bet.id}/share-image${query}`,
  };
}

export type SharePreview = {
  id: number;
  code: string;
  title: string;
  description: string;
  amountCents: number;
  currency: Currency;
  visibility: Bet["visibility"];
  updatedAt: Date;
  /**
   * The bet's language, the one its preview tags and card are written in:
   * its creator's saved language as the preview is served (English for
   * accounts older than languages; docs/product-rules.md#languages).
   */
  language: Language;
};

/**
 * The bet as a link preview may see it: a public bet, or a private one when
 * the link's `?code=` matches or the signed-in viewer may see it anyway (a
 * participant, the referee, someone who opened it by code: docs/product-rules.md#private-bets).
 * Anything else is null (a 404).
 */
export async function getSharePreview(
  betId: number,
  code: string | null,
  /** Who asks, for the limit on codes that miss. */
  guesser: CodeGuesser,
  /** A signed-in viewer who may see the bet without its code, if any. */
  viewerId: number | null = null,
): Promise<SharePreview | null> {
  if (code === null) return await findPreview(betId, null, viewerId);
  // A code that opens nothing is a guess, and counts as one.
  return await tryCode(guesser, () => findPreview(betId, code, viewerId));
}

async function findPreview(
  betId: number,
  code: string | null,
  viewerId: number | null,
): Promise<SharePreview | null> {
  const bet = (
    await db
      .select({
        id: bets.id,
        code: bets.code,
        title: bets.title,
        description: bets.description,
        amountCents: bets.amountCents,
        currency: bets.currency,
        visibility: bets.visibility,
        updatedAt: bets.updatedAt,
        refereeId: bets.refereeId,
        creatorLanguage: users.language,
      })
      .from(bets)
      .innerJoin(users, eq(users.id, bets.creatorId))
      .where(and(eq(bets.id, betId)))
      .limit(1)
  )[0];
  if (!bet) return null;
  if (
    bet.visibility === "private" &&
    !codeMatches(bet, code) &&
    !(viewerId !== null && (await canViewBet(bet, viewerId)))
  )
    return null;
  const { refereeId: _referee, creatorLanguage, ...preview } = bet;
  return { ...preview, language: resolveLanguage({ saved: creatorLanguage }) };
}

/** docs/api.md share-meta: `{title, description, image, url, code}`. */
export function shareMeta(preview: SharePreview, request?: Request) {
  const links = shareLinks(preview, request);
  return {
    title: preview.title,
    description: preview.description,
    image: links.imageUrl,
    url: links.shareUrl,
    code: preview.code,
  };
}
