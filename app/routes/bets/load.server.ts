// The bet pages' loader helper: the bet as the viewer may see it, or the
// page's 404 (through the page door, app/utils/page.server.ts).
import { BET_NOT_FOUND, getBetForViewer } from "~/models/bet-access.server";
import { parseId } from "~/utils/api.server";
import { notFound } from "~/utils/errors";
import { page } from "~/utils/page.server";

export function betForPage(rawId: string | undefined, userId: number) {
  return page(
    () => {
      const betId = parseId(rawId);
      if (betId === null) throw notFound(BET_NOT_FOUND);
      return getBetForViewer({ betId, userId });
    },
    { 404: () => "Bet not found" },
  );
}
