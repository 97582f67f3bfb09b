// Bets, their input: share codes, and the create and edit fields with the product's
// messages (docs/product-rules.md#forms-and-messages, #amounts-and-limits), the referee field (docs/product-rules.md#referee) and a join's version.
import crypto from "node:crypto";
import { and, eq, or } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "~/db/connections.server";
import { db } from "~/db/transactions.server";
import { friendships } from "~/db/schema";
import { invalid } from "~/utils/errors";
import {
  amountLimitError,
  CURRENCY_TABLE,
  DEFAULT_CURRENCY,
  isCurrency,
  UNKNOWN_CURRENCY,
  unitsToMinor,
  type Currency,
} from "~/domain/currency";
import { fieldErrorsOf, maxChars } from "~/utils/validation";

// --- Codes ------------------------------------------------------------------

/** No 0/O, 1/I/L: a code read aloud or off a screen cannot be misread. */
export const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const CODE_LENGTH = 6;

export function generateCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++)
    code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return code;
}

export function normalizeCode(raw: string): string {
  return raw.trim().toUpperCase();
}

// --- Validation: create and edit (docs/product-rules.md#forms-and-messages, #amounts-and-limits) ---

export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 1000;

export type Mode = "create" | "edit";

export const MESSAGES = {
  create: {
    title: "Title must be at least 2 characters.",
    titleMin: 2,
    description: "Description must be at least 2 characters.",
    descriptionMin: 2,
    amount: "Amount must be a positive number.",
    deadline: "Please select a deadline.",
  },
  edit: {
    title: "Title must be at least 3 characters",
    titleMin: 3,
    description: "Description must be at least 10 characters",
    descriptionMin: 10,
    amount: "Amount must be positive",
    deadline: "Invalid date format",
  },
} as const;

/** A decimal as a form's number field sends it: no spaces, no exponent. */
export const DECIMAL = /^-?\d+(\.\d+)?$/;
export const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * An ISO 8601 date or date-time naming a real instant, in ms; NaN otherwise.
 * `Date.parse` rolls 2030-02-30 over to March 2: a date that does not exist
 * is refused instead.
 */
export function parseIsoInstant(text: string): number {
  const m = ISO_INSTANT.exec(text.trim());
  if (!m) return Number.NaN;
  const [, y, mo, d, h = "0", mi = "0", sec = "0", oh = "0", om = "0"] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const realDate =
    day.getUTCFullYear() === Number(y) &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d);
  if (
    !realDate ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(sec) > 59 ||
    Number(oh) > 23 ||
    Number(om) > 59
  )
    return Number.NaN;
  return Date.parse(text.trim());
}

/**
 * The create and edit fields. `currency` is the bet's (docs/product-rules.md#currencies):
 * the amount is a whole number of its units, between its limits, and the
 * refusals name it.
 */
export function betInputSchema(
  mode: Mode,
  currency: Currency = DEFAULT_CURRENCY,
) {
  const m = MESSAGES[mode];
  return z.object({
    title: z
      .string({ error: m.title })
      .trim()
      .min(m.titleMin, m.title)
      .superRefine(
        maxChars(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters.`),
      ),
    description: z
      .string({ error: m.description })
      .trim()
      .min(m.descriptionMin, m.description)
      .superRefine(
        maxChars(
          DESCRIPTION_MAX,
          "Description must be at most 1,000 characters.",
          { multiline: true },
        ),
      ),
    // A JSON number or the form's decimal string, nothing else: `true`,
    // `[5]` and "0x10" are not amounts.
    amount: z
      .union([z.number(), z.string()], { error: m.amount })
      .transform((v) =>
        typeof v === "number"
          ? v
          : DECIMAL.test(v)
            ? Number(v.trim())
            : Number.NaN,
      )
      .refine(Number.isFinite, { message: m.amount, abort: true })
      .refine((n) => n > 0, { message: m.amount, abort: true })
      .refine((n) => Number.isInteger(n), {
        message: `Amount must be a whole number of ${CURRENCY_TABLE[currency].units}.`,
        abort: true,
      })
      .superRefine((n, ctx) => {
        const limit = amountLimitError(n, currency);
        if (limit) ctx.addIssue({ code: "custom", message: limit });
      }),
    deadline: z
      .union([z.string(), z.number(), z.date()], { error: m.deadline })
      .transform((value, ctx) => {
        const ms =
          value instanceof Date
            ? value.getTime()
            : typeof value === "number"
              ? value
              : parseIsoInstant(value);
        if (typeof value === "string" && value.trim() === "") {
          ctx.addIssue({ code: "custom", message: MESSAGES[mode].deadline });
          return z.NEVER;
        }
        if (!Number.isFinite(ms)) {
          ctx.addIssue({ code: "custom", message: m.deadline });
          return z.NEVER;
        }
        return ms;
      }),
    visibility: z.enum(["public", "private"], {
      error: "Please select visibility.",
    }),
  });
}

export type BetInput = {
  title: string;
  description: string;
  /** In the smallest unit of `currency` (cents; whole yen). */
  amountCents: number;
  /** ISO 4217; absent (callers that predate currencies) is US dollars at create, the bet's own at edit. */
  currency?: Currency;
  deadline: number;
  visibility: "public" | "private";
  /** A friend of the creator (docs/product-rules.md#referee); null clears, undefined keeps. */
  refereeId?: number | null;
};

export const REFEREE_NOT_FRIEND = "The referee must be one of your friends.";

/** `refereeId` from JSON or a form: absent, null/"" (none) or a user id. */
export function parseRefereeId(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  const id = typeof value === "string" ? Number(value) : value;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0)
    throw invalid(REFEREE_NOT_FRIEND, { refereeId: [REFEREE_NOT_FRIEND] });
  return id;
}

export async function areFriends(tx: Tx | typeof db, a: number, b: number) {
  return (
    (
      await tx
        .select({ id: friendships.id })
        .from(friendships)
        .where(
          and(
            eq(friendships.status, "accepted"),
            or(
              and(
                eq(friendships.requesterId, a),
                eq(friendships.addresseeId, b),
              ),
              and(
                eq(friendships.requesterId, b),
                eq(friendships.addresseeId, a),
              ),
            ),
          ),
        )
        .limit(1)
    )[0] !== undefined
  );
}

/** docs/product-rules.md#referee: a friend of the creator, never a participant (nor the creator). */
export async function assertReferee(
  tx: Tx,
  creatorId: number,
  refereeId: number,
) {
  if (refereeId === creatorId || !(await areFriends(tx, creatorId, refereeId)))
    throw invalid(REFEREE_NOT_FRIEND, { refereeId: [REFEREE_NOT_FRIEND] });
}

/**
 * A bet's `currency` as sent: absent (undefined, null or "") is `fallback`,
 * an upper-case code of the table is itself, anything else is 400 'Unknown currency'.
 */
export function parseBetCurrency(value: unknown, fallback: Currency): Currency {
  if (value === undefined || value === null || value === "") return fallback;
  if (!isCurrency(value))
    throw invalid(UNKNOWN_CURRENCY, { currency: [UNKNOWN_CURRENCY] });
  return value;
}

/**
 * Validates bet fields from the API or a form (`amount` in whole units of the
 * bet's currency, `deadline` an ISO string or epoch ms). `currency` is the
 * bet's unless the input names one: the creator's default at create, the
 * bet's own at edit. Throws 400 with the product's messages.
 */
export function parseBetInput(
  input: unknown,
  mode: Mode,
  now = Date.now(),
  fallbackCurrency: Currency = DEFAULT_CURRENCY,
): BetInput {
  const currency = parseBetCurrency(
    input && typeof input === "object"
      ? (input as Record<string, unknown>).currency
      : undefined,
    fallbackCurrency,
  );
  const parsed = betInputSchema(mode, currency).safeParse(input);
  if (!parsed.success) {
    throw invalid(
      mode === "create"
        ? "Please check your form inputs and try again"
        : "Error updating bet",
      fieldErrorsOf(parsed.error),
    );
  }
  const { title, description, amount, deadline, visibility } = parsed.data;
  const refereeId =
    input && typeof input === "object" && "refereeId" in input
      ? parseRefereeId((input as Record<string, unknown>).refereeId)
      : undefined;
  if (deadline <= now) {
    // docs/product-rules.md#bets: the deadline must be in the future at create and edit.
    throw invalid(
      "Deadline must be in the future",
      { deadline: ["Deadline must be in the future"] },
      { code: "deadline_past", field: "deadline" },
    );
  }
  return {
    title,
    description,
    amountCents: unitsToMinor(amount, currency),
    currency,
    deadline,
    visibility,
    ...(refereeId !== undefined ? { refereeId } : {}),
  };
}

/** A join's `version`: epoch ms, none sent (null), or text that did not parse. */
export type ShownVersion = number | null | "invalid";

/** A join's `version` is the bet's `updatedAt` as shown: ISO text or epoch ms. */
export function parseVersion(value: unknown): ShownVersion {
  if (value === undefined || value === null || value === "") return null;
  const ms =
    typeof value === "number"
      ? value
      : typeof value === "string"
        ? Date.parse(value)
        : NaN;
  return Number.isFinite(ms) ? ms : "invalid";
}
