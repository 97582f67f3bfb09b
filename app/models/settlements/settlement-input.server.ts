// Settlements: the input a proposal or a rejection may carry, parsed into
// what the commands use (the messages are in ./settlement-rules.server.ts).
import { z } from "zod";
import type { Outcome } from "~/db/schema";
import { invalid } from "~/utils/errors";
import { fieldErrorsOf, maxChars } from "~/utils/validation";
import { NOTES_MAX } from "~/domain/settlement-text";
import {
  BAD_OUTCOME,
  NO_WINNER,
  VOID_WITH_WINNER,
} from "./settlement-rules.server";

const optionalText = (field: string) =>
  z
    .string({ error: `${field} must be text.` })
    .nullish()
    .transform((v) => (v ?? "").trim())
    .superRefine(
      maxChars(NOTES_MAX, `${field} must be at most ${NOTES_MAX} characters.`, {
        multiline: true,
      }),
    )
    .transform((v) => (v === "" ? null : v));

const winnerIdSchema = z.coerce
  .number({ error: NO_WINNER })
  .int(NO_WINNER)
  .positive(NO_WINNER);

const ProposalSchema = z.object({
  winnerId: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    winnerIdSchema.optional(),
  ),
  outcome: z.enum(["winner", "void"], { error: BAD_OUTCOME }).optional(),
  settlementNotes: optionalText("Notes"),
});

export type ProposalInput = {
  outcome: Outcome;
  winnerId: number | null;
  notes: string | null;
};

const RejectionSchema = z.object({
  rejectionReason: optionalText("Reason"),
});

/**
 * `{winnerId, settlementNotes?}` or `{outcome: "void"}` from JSON or a form
 * (whose radio sends `winnerId=void` for the third choice): 400 with the product's
 * message.
 */
export function parseProposalInput(input: unknown): ProposalInput {
  const raw =
    input && typeof input === "object"
      ? { ...(input as Record<string, unknown>) }
      : input;
  if (raw && typeof raw === "object" && "winnerId" in raw) {
    const fields = raw as Record<string, unknown>;
    if (fields.winnerId === "void" && fields.outcome === undefined) {
      delete fields.winnerId;
      fields.outcome = "void";
    }
  }
  const parsed = ProposalSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    throw invalid(
      fieldErrors.winnerId
        ? NO_WINNER
        : fieldErrors.outcome
          ? BAD_OUTCOME
          : "Invalid input",
      {
        ...fieldErrors,
        ...(fieldErrors.winnerId ? { winnerId: [NO_WINNER] } : {}),
      },
    );
  }
  const { winnerId, outcome, settlementNotes } = parsed.data;
  if (outcome === "void") {
    if (winnerId !== undefined)
      throw invalid(VOID_WITH_WINNER, { winnerId: [VOID_WITH_WINNER] });
    return { outcome: "void", winnerId: null, notes: settlementNotes };
  }
  if (winnerId === undefined)
    throw invalid(NO_WINNER, { winnerId: [NO_WINNER] });
  return { outcome: "winner", winnerId, notes: settlementNotes };
}

export function parseRejectionInput(input: unknown) {
  const parsed = RejectionSchema.safeParse(input);
  if (!parsed.success)
    throw invalid("Invalid input", fieldErrorsOf(parsed.error));
  return { reason: parsed.data.rejectionReason };
}
