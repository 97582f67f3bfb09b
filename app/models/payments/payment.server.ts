// Payments (docs/product-rules.md#paying): only the loser of a settled bet pays, once, the bet
// amount. A payment is recorded only after the provider confirms it
// succeeded, idempotently by intent id, and the ledger entries are written
// in the same immediate transaction as the status changes.
import { nameOf } from "../accounts/display-name.server";
import { and, eq } from "drizzle-orm";
import { db, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import {
  betEvents,
  bets,
  payments,
  processedWebhookEvents,
  settlements,
  type Settlement,
} from "~/db/schema";
import { recordActivity } from "../social/activity.server";
import { BET_NOT_FOUND } from "~/domain/bet";
import { canViewBet, getBetView } from "../bets/bet-access.server";
import { writePaymentEntries } from "./ledger.server";
import {
  intentIdempotencyKey,
  type PaymentProvider,
} from "~/payments/provider.server";
import { getPaymentProvider } from "./payment-provider.server";
import { conflict, forbidden, notFound } from "~/utils/errors";
import type { Currency } from "~/domain/currency";
import { announceBet } from "../notifications/live-events.server";

export const NOT_SETTLED = "This bet has not been settled yet.";
export const NOT_LOSER = "Only the loser of this bet pays the winnings.";
export const ALREADY_PAID = "This bet has already been paid.";
/** What the payment pages show when no provider is configured (docs/decisions/0201-no-payment-provider.md). */
export const PAYMENTS_UNAVAILABLE_NOTICE = {
  title: "Payment method not available",
  message: "Card payments are not set up on this server.",
} as const;
export const PAYMENTS_UNAVAILABLE = `${PAYMENTS_UNAVAILABLE_NOTICE.title}: card payments are not set up on this server.`;
/** The code of that refusal: a page shows the notice instead of the API's sentence. */
export const PAYMENTS_UNAVAILABLE_CODE = "payments_unavailable";
export const INTENT_UNKNOWN = "This payment could not be found.";
export const INTENT_NOT_SUCCEEDED = "This payment has not succeeded.";
export const AMOUNT_MISMATCH = "The payment amount does not match this bet.";

export function requireProvider(provider = getPaymentProvider()) {
  if (!provider)
    throw conflict(PAYMENTS_UNAVAILABLE, PAYMENTS_UNAVAILABLE_NOTICE.title, {
      code: PAYMENTS_UNAVAILABLE_CODE,
    });
  return provider;
}

export type PayableBet = {
  betId: number;
  title: string;
  /** In the bet's currency's smallest unit. */
  amountCents: number;
  currency: Currency;
  settlement: Settlement;
  winnerName: string;
};

/**
 * What the loser may pay: 404 an unseen bet, 403 a stranger or the winner,
 * 409 not settled or already paid.
 */
export async function getPayableBet({
  betId,
  userId,
  allowPaid = false,
}: {
  betId: number;
  userId: number;
  allowPaid?: boolean;
}): Promise<PayableBet> {
  const bet = await getBetView(betId);
  if (!bet || !(await canViewBet(bet, userId))) throw notFound(BET_NOT_FOUND);
  if (!bet.participants.some((p) => p.id === userId))
    throw forbidden(NOT_LOSER);
  const settlement = (
    await db
      .select()
      .from(settlements)
      .where(eq(settlements.betId, betId))
      .limit(1)
  )[0];
  if (bet.status !== "settled" || !settlement?.settledAt)
    throw conflict(NOT_SETTLED);
  if (settlement.loserId !== userId) throw forbidden(NOT_LOSER);
  if (!allowPaid && settlement.paymentStatus === "completed")
    throw conflict(ALREADY_PAID);
  const winner = bet.participants.find((p) => p.id === settlement.winnerId);
  return {
    betId,
    title: bet.title,
    amountCents: bet.amountCents,
    currency: bet.currency,
    settlement,
    winnerName: winner?.username ?? "the winner",
  };
}

/** Creates (or, with Stripe's idempotency key, re-finds) the loser's intent. */
export async function createPaymentIntent({
  betId,
  userId,
  provider = getPaymentProvider(),
}: {
  betId: number;
  userId: number;
  provider?: PaymentProvider | null;
}) {
  const payable = await getPayableBet({ betId, userId });
  const p = requireProvider(provider);
  const intent = await p.createIntent({
    betId,
    payerId: userId,
    amountCents: payable.amountCents,
    currency: payable.currency,
    idempotencyKey: intentIdempotencyKey(betId, userId),
  });
  await immediate(
    (tx) =>
      tx
        .insert(payments)
        .values({
          betId,
          payerId: userId,
          payeeId: payable.settlement.winnerId!,
          provider: p.name,
          intentId: intent.id,
          amountCents: payable.amountCents,
          currency: payable.currency,
          status: "pending",
        })
        .onConflictDoNothing(),
    { bookkeeping: true, moneyOrMembership: true },
  );
  return {
    intentId: intent.id,
    clientSecret: intent.clientSecret,
    amountCents: payable.amountCents,
    currency: payable.currency,
  };
}

/** Whether `userId` is the payer this intent was created for. */
export async function isIntentPayer(intentId: string, userId: number) {
  const row = (
    await db
      .select({ payerId: payments.payerId })
      .from(payments)
      .where(eq(payments.intentId, intentId))
      .limit(1)
  )[0];
  return row?.payerId === userId;
}

/**
 * The client says it paid: ask the provider, then record. The same intent
 * twice records once (200 both times).
 */
export async function recordPayment({
  betId,
  userId,
  intentId,
  amountCents,
  provider = getPaymentProvider(),
}: {
  betId: number;
  userId: number;
  intentId: string;
  /** What the client says it paid, in the bet's currency's smallest unit. */
  amountCents?: number;
  provider?: PaymentProvider | null;
}): Promise<Settlement> {
  const payable = await getPayableBet({ betId, userId, allowPaid: true });
  const existing = (
    await db
      .select()
      .from(payments)
      .where(eq(payments.intentId, intentId))
      .limit(1)
  )[0];
  if (existing && (existing.betId !== betId || existing.payerId !== userId))
    throw conflict(INTENT_UNKNOWN);
  if (existing?.status === "completed") return payable.settlement;
  if (payable.settlement.paymentStatus === "completed")
    throw conflict(ALREADY_PAID);
  const p = requireProvider(provider);
  const intent = await p.retrieveIntent(intentId);
  if (!intent || (intent.betId !== null && intent.betId !== betId))
    throw conflict(INTENT_UNKNOWN);
  if (intent.payerId !== null && intent.payerId !== userId)
    throw conflict(INTENT_UNKNOWN);
  if (intent.status !== "succeeded") throw conflict(INTENT_NOT_SUCCEEDED);
  if (
    intent.amountCents !== payable.amountCents ||
    intent.currency !== payable.currency ||
    (amountCents !== undefined && amountCents !== payable.amountCents)
  )
    throw conflict(AMOUNT_MISMATCH);
  return (
    await completePayment({
      betId,
      payerId: userId,
      intentId,
      amountCents: intent.amountCents,
      currency: intent.currency,
      provider: p.name,
    })
  ).settlement;
}

/**
 * Records a provider-verified payment in one immediate transaction: the
 * payment and settlement become completed and the ledger entries are
 * written, or nothing happens. A webhook passes its event id so a replay
 * changes nothing.
 */
export async function completePayment({
  betId,
  payerId,
  intentId,
  amountCents,
  currency,
  provider,
  event,
}: {
  betId: number;
  payerId: number;
  intentId: string;
  /** What the provider charged: the bet's amount in its currency, or nothing is recorded. */
  amountCents: number;
  currency: string;
  provider: "demo" | "stripe";
  event?: { id: string; type: string };
}): Promise<{ settlement: Settlement; recorded: boolean }> {
  return await immediate(
    async (tx) => {
      const current = async () =>
        (
          await tx
            .select()
            .from(settlements)
            .where(eq(settlements.betId, betId))
            .limit(1)
        )[0];
      if (event) {
        const fresh = await tx
          .insert(processedWebhookEvents)
          .values(event)
          .onConflictDoNothing();
        if (changedRows(fresh) === 0) {
          const s = await current();
          if (!s) throw notFound(BET_NOT_FOUND);
          return { settlement: s, recorded: false };
        }
      }
      const existing = (
        await tx
          .select()
          .from(payments)
          .where(eq(payments.intentId, intentId))
          .limit(1)
      )[0];
      const settlement = await current();
      if (!settlement?.settledAt || settlement.outcome === "void")
        throw conflict(NOT_SETTLED);
      if (existing?.status === "completed")
        return { settlement, recorded: false };
      if (
        existing &&
        (existing.betId !== betId || existing.payerId !== payerId)
      )
        throw conflict(INTENT_UNKNOWN);
      if (settlement.loserId !== payerId) throw forbidden(NOT_LOSER);
      const bet = (
        await tx.select().from(bets).where(eq(bets.id, betId)).limit(1)
      )[0]!;
      if (amountCents !== bet.amountCents || currency !== bet.currency)
        throw conflict(AMOUNT_MISMATCH);
      if (settlement.paymentStatus === "completed")
        throw conflict(ALREADY_PAID);

      const paymentId =
        existing?.id ??
        (
          await tx
            .insert(payments)
            .values({
              betId,
              payerId,
              payeeId: settlement.winnerId!,
              provider,
              intentId,
              amountCents,
              currency: bet.currency,
            })
            .returning({ id: payments.id })
        )[0]!.id;
      const now = new Date();
      const done = await tx
        .update(payments)
        .set({ status: "completed", completedAt: now })
        .where(and(eq(payments.id, paymentId), eq(payments.status, "pending")));
      const paid = await tx
        .update(settlements)
        .set({ paymentStatus: "completed" })
        .where(
          and(
            eq(settlements.betId, betId),
            eq(settlements.paymentStatus, "pending"),
          ),
        );
      if (changedRows(done) !== 1 || changedRows(paid) !== 1)
        throw conflict(ALREADY_PAID);
      await writePaymentEntries(tx, {
        paymentId,
        betId,
        loserId: payerId,
        winnerId: settlement.winnerId!,
        amountCents,
        currency: bet.currency,
      });
      await tx
        .insert(betEvents)
        .values({ betId, actorId: payerId, type: "paid", data: { paymentId } });
      await announceBet(tx, betId);
      const payer = await nameOf(tx, payerId);
      await recordActivity(tx, {
        userId: settlement.winnerId!,
        actorId: payerId,
        type: "payment_received",
        text: {
          key: "notify.paid",
          values: {
            payer,
            amount: { money: amountCents, currency: bet.currency },
            title: bet.title,
          },
        },
        betId,
      });
      return { settlement: (await current())!, recorded: true };
    },
    { durable: true, moneyOrMembership: true },
  );
}
