// The demo provider (docs/product-rules.md#paying): it plays the card processor, keeping its own
// record of intents so the server can ask it, as it would ask Stripe, before
// recording a payment. Card numbers are checked and forgotten: never stored,
// never logged. Where the intents are kept is the model's business: the
// model that chooses the provider hands it a store (models never come the
// other way: docs/decisions/0920-layers-by-lint.md, docs/decisions/0960-layers-as-they-are.md), so this file touches no database.
import type { Currency } from "~/domain/currency";
import crypto from "node:crypto";
import { PAYMENT_FAILED_TITLE } from "~/domain/payment";
import {
  DomainError,
  invalid,
  notFound,
  type FieldErrors,
} from "~/utils/errors";
import type { PaymentProvider, ProviderIntent } from "./provider.server";

/** The demo processor's record of one intent. */
export type DemoIntent = {
  id: string;
  betId: number;
  /** In the smallest unit of `currency`, as Stripe would charge it. */
  amountCents: number;
  currency: string;
  status: "requires_payment_method" | "succeeded" | "canceled";
};

/** Where the demo processor keeps its intents (the model layer gives one). */
export interface DemoIntentStore {
  /**
   * In one transaction: the intent still open for this bet and amount, or a
   * new one under `newId()`.
   */
  openOrCreate(input: {
    betId: number;
    amountCents: number;
    currency: Currency;
    newId: () => string;
  }): Promise<DemoIntent>;
  find(id: string): Promise<DemoIntent | null>;
  /** Notes why the card was refused; the intent stays open. */
  recordDecline(id: string, message: string): Promise<void>;
  /** Marks an open intent succeeded (only one still open). */
  markSucceeded(id: string): Promise<void>;
}

/** Input of confirming an intent with a card (the browser's part). */
export type DemoConfirmInput = {
  intentId: string;
  card: Partial<Record<keyof CardInput, unknown>>;
  /** Whether the person confirming is this intent's payer. */
  isPayer: (intentId: string) => Promise<boolean>;
  now?: Date;
};

/** The demo provider: the payment interface plus confirming with a card. */
export type DemoProvider = PaymentProvider & {
  confirmIntent(input: DemoConfirmInput): Promise<{ status: "succeeded" }>;
};

export const TEST_CARD_OK = "4242424242424242";
export const TEST_CARD_DECLINED = "4000000000000002";
export const CARD_DECLINED = "Your card was declined.";
export const TEST_CARDS_ONLY =
  "Demo mode accepts test cards only: use 4242 4242 4242 4242.";

function toIntent(
  row: DemoIntent,
  payerId: number | null = null,
): ProviderIntent {
  return {
    id: row.id,
    clientSecret: `${row.id}_secret`,
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status,
    betId: row.betId,
    payerId,
  };
}

export function createDemoProvider(store: DemoIntentStore): DemoProvider {
  const confirmIntent = async (input: DemoConfirmInput) =>
    confirmDemoIntent(store, input);
  return {
    name: "demo",
    publishableKey: null,
    // Like Stripe with its idempotency key, asking again for the same bet
    // answers the intent still open rather than a second one that could be
    // confirmed too (one charge nobody records).
    async createIntent({ betId, payerId, amountCents, currency }) {
      const row = await store.openOrCreate({
        betId,
        amountCents,
        currency,
        newId: () => `demo_pi_${crypto.randomBytes(12).toString("hex")}`,
      });
      return toIntent(row, payerId);
    },
    async retrieveIntent(id) {
      const row = await store.find(id);
      return row ? toIntent(row) : null;
    },
    // The card form posts to the server, which plays the browser's part:
    // check the card, open the loser's intent, confirm it with the card.
    async checkout({ fields, openIntent, isPayer }) {
      const card = {
        cardNumber: fields.get("cardNumber"),
        expiry: fields.get("expiry"),
        cvc: fields.get("cvc"),
      };
      validateDemoCard(card);
      const intentId = await openIntent();
      await confirmIntent({ intentId, card, isPayer });
      return { kind: "record", intentId };
    },
    // No one outside calls the demo back.
    async readWebhook() {
      return { kind: "absent" };
    },
    confirmIntent,
  };
}

export type CardInput = { cardNumber: string; expiry: string; cvc: string };

/** Validates the demo card form: 400 with field errors (the wording in docs/product-rules.md#paying). */
export function validateDemoCard(
  input: Partial<Record<keyof CardInput, unknown>>,
  now = new Date(),
): { cardNumber: string } {
  const errors: FieldErrors = {};
  const number = String(input.cardNumber ?? "").replace(/[\s-]/g, "");
  const expiry = String(input.expiry ?? "").trim();
  const cvc = String(input.cvc ?? "").trim();
  if (number === "") errors.cardNumber = ["Card number is required."];
  else if (number !== TEST_CARD_OK && number !== TEST_CARD_DECLINED)
    errors.cardNumber = [TEST_CARDS_ONLY];
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) {
    errors.expiry = ["Expiry must be MM/YY."];
  } else {
    // A card is good through the last day of its expiry month.
    const endOfMonth = Date.UTC(2000 + Number(m[2]), Number(m[1]), 1);
    if (endOfMonth <= now.getTime())
      errors.expiry = ["Expiry must be in the future."];
  }
  if (!/^\d{3,4}$/.test(cvc)) errors.cvc = ["CVC must be 3 or 4 digits."];
  if (Object.keys(errors).length > 0) {
    throw invalid(
      errors.cardNumber?.[0] ??
        errors.expiry?.[0] ??
        errors.cvc?.[0] ??
        "Invalid card",
      errors,
    );
  }
  return { cardNumber: number };
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what names no intent
const NAMES_NO_INTENT = /[\u0000-\u001f\u007f]|^.{256,}$/su;

/**
 * Confirms a demo intent with a card: 200-like on 4242…, 402 'Your card was
 * declined.' on 4000…0002. Only the intent's payer (the bet's loser, as
 * checked when the intent was made) may confirm it.
 */
async function confirmDemoIntent(
  store: DemoIntentStore,
  { intentId, card, isPayer, now = new Date() }: DemoConfirmInput,
): Promise<{ status: "succeeded" }> {
  // An id with a control character (PostgreSQL refuses a NUL in text) or
  // past any id's length names no intent: the same 404 as an unknown one.
  const row = NAMES_NO_INTENT.test(intentId)
    ? null
    : await store.find(intentId);
  if (!row || !(await isPayer(intentId)))
    throw notFound("Payment intent not found.");
  if (row.status === "succeeded") return { status: "succeeded" };
  if (row.status === "canceled")
    throw new DomainError(409, "This payment was canceled.");
  const { cardNumber } = validateDemoCard(card, now);
  if (cardNumber === TEST_CARD_DECLINED) {
    await store.recordDecline(intentId, CARD_DECLINED);
    throw new DomainError(402, CARD_DECLINED, undefined, PAYMENT_FAILED_TITLE);
  }
  await store.markSucceeded(intentId);
  return { status: "succeeded" };
}
