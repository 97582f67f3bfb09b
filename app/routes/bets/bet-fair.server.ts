// /bet/{id}'s share of docs/product-rules.md#void, #referee, #getting-paid: what the fair panel shows (a called-off
// bet, the due date, the dispute, whether the viewer may ask the referee or
// nudge) and its two form intents, "refer" and "nudge".
import {
  getPaymentRecord,
  nudgePayment,
  nudgeState,
} from "~/models/payments/dues.server";
import type { BetView } from "~/models/bets/bet-access.server";
import {
  referDispute,
  referralBlockForPage,
} from "~/models/settlements/settlement-referee.server";
import type { SettlementView } from "~/models/settlements/settlement-view.server";
import { betIdOrNotFound } from "~/models/bets/bet-id.server";
import { formatDateTime } from "~/utils/dates";
import { formFailure } from "~/framework/page.server";
import { redirectWithToast } from "~/framework/toast.server";
import { href } from "react-router";
import { intlLocale, type Language } from "~/domain/language";
import { paymentRecordText } from "~/domain/payment-record-text";
import { serverT } from "~/framework/catalogs.server";

export async function loadFairState(
  bet: BetView,
  userId: number,
  settlementView: SettlementView | null,
  timeZone: string,
  now = Date.now(),
  language: Language = "en",
) {
  const unpaid =
    bet.status === "settled" &&
    settlementView?.settlement.paymentStatus === "pending";
  const nudge =
    unpaid && bet.winnerId === userId
      ? await nudgeState(bet.id, userId, now)
      : null;
  return {
    referee: bet.refereeId
      ? {
          name: bet.refereeName,
          isMe: bet.refereeId === userId,
          referredAt: bet.disputeReferredAt
            ? formatDateTime(
                bet.disputeReferredAt,
                timeZone,
                intlLocale(language),
              )
            : null,
        }
      : null,
    canRefer:
      (await referralBlockForPage(bet, userId, settlementView !== null)) ===
      null,
    creatorRecord: paymentRecordText(
      serverT(language),
      await getPaymentRecord(bet.creatorId, now),
    ),
    voided: bet.voidedAt !== null,
    payment:
      unpaid && bet.paymentDueAt
        ? {
            dueLabel: formatDateTime(
              bet.paymentDueAt,
              timeZone,
              intlLocale(language),
            ),
            overdue: bet.paymentDueAt.getTime() <= now,
          }
        : null,
    nudge: nudge
      ? nudge.can
        ? { can: true as const, message: null }
        : { can: false as const, message: nudge.message }
      : null,
  };
}

export async function fairAction(
  intent: "nudge" | "refer",
  rawId: string | undefined,
  userId: number,
) {
  try {
    const betId = betIdOrNotFound(rawId);
    if (intent === "nudge") {
      await nudgePayment({ betId, userId });
      return redirectWithToast(href("/bet/:id", { id: String(betId) }), {
        title: "Nudge sent",
        description: "We reminded them to pay, with a link to pay now.",
      });
    }
    await referDispute({ betId, userId });
    return redirectWithToast(href("/bet/:id", { id: String(betId) }), {
      title: "Sent to the referee",
      description: "The referee will rule on who won.",
    });
  } catch (error) {
    return formFailure(
      error,
      intent === "nudge" ? "Could not nudge" : "Could not ask the referee",
    );
  }
}
