// What the bet page (/bet/{id}) shows, read for the signed-in person: the
// bet, its settlement, messages and fair-play state, the share links and QR.
import { href } from "react-router";
import { toSettlementCardData } from "~/components/settlement-card";
import { mayEditBet, mayJoinBet } from "~/models/bets/bet-policy.server";
import { shareLinks } from "~/models/bets/share.server";
import { DEMO_PAYMENT_BET_ID } from "~/models/cross-domain/demo-seed.server";
import { intlLocale, type Language } from "~/domain/language";
import { serverT } from "~/framework/catalogs.server";
import {
  formatDateIn,
  relativeTimeIn,
} from "~/framework/dates-in-language.server";
import { isDemoMode } from "~/utils/env.server";
import { qrCodeSvg } from "~/utils/qr-code.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { loadFairState } from "./bet-fair.server";
import { loadMessages } from "./bet-messages.server";
import { betPageFor } from "./load.server";

export async function betPageData(
  request: Request,
  userId: number,
  id: string | undefined,
  language: Language = "en",
) {
  const { bet, settlementView } = await betPageFor(id, userId);
  const links = shareLinks(bet, request);
  const qrSvg = await qrCodeSvg(links.joinUrl);
  const isCreator = bet.creatorId === userId;
  const isParticipant = bet.participants.some((p) => p.id === userId);
  const timeZone = readTimeZone(request);
  const settlement = settlementView
    ? toSettlementCardData(
        settlementView,
        userId,
        timeZone,
        intlLocale(language),
      )
    : null;
  return {
    settlement,
    messages: await loadMessages(bet, userId, timeZone),
    ...(await loadFairState(
      bet,
      userId,
      settlementView,
      timeZone,
      undefined,
      language,
    )),
    bet: {
      id: bet.id,
      code: bet.code,
      title: bet.title,
      description: bet.description,
      amountCents: bet.amountCents,
      currency: bet.currency,
      status: bet.status,
      visibility: bet.visibility,
      deadline: bet.deadline.toISOString(),
      deadlineLabel: serverT(language)(
        bet.deadline.getTime() <= Date.now() ? "bet.closed" : "bet.closes",
        { when: relativeTimeIn(bet.deadline, language) },
      ),
      created: formatDateIn(bet.createdAt, language),
      version: bet.updatedAt.toISOString(),
      winnerId: bet.winnerId,
      creatorName: bet.creatorName,
      participants: bet.participants.map((p) => ({
        id: p.id,
        username: p.username,
      })),
    },
    me: userId,
    isCreator,
    isParticipant,
    canEdit: mayEditBet(bet, userId),
    canJoin: mayJoinBet(bet, userId),
    // docs/product-rules.md#bets: the seeded bet alice lost offers the demo payment.
    demoPaymentHref:
      isDemoMode && bet.id === DEMO_PAYMENT_BET_ID
        ? href("/payment/:id", { id: String(DEMO_PAYMENT_BET_ID) })
        : null,
    links,
    qrSvg,
  };
}
