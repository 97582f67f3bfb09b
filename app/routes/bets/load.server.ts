// The bet pages' loader helpers: the bet as the viewer may see it, or the
// page's 404 (through the page door, app/framework/page.server.ts).
import { getBetForViewer } from "~/models/bets/bet-access.server";
import { betIdOrNotFound } from "~/models/bets/bet-id.server";
import { page } from "~/framework/page.server";
import { getBetPage } from "~/models/settlements/settlement-view.server";

const BET_PAGE_404 = { 404: () => "Bet not found" };

export async function betForPage(rawId: string | undefined, userId: number) {
  return page(
    async () => getBetForViewer({ betId: betIdOrNotFound(rawId), userId }),
    BET_PAGE_404,
  );
}

/** The same, with the bet's live settlement read in the same statement (/bet/{id}). */
export async function betPageFor(rawId: string | undefined, userId: number) {
  return page(
    async () => getBetPage({ betId: betIdOrNotFound(rawId), userId }),
    BET_PAGE_404,
  );
}
