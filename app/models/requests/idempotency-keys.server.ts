// The store behind "every write is safe to repeat" (docs/product-rules.md#repeats):
// one row per (person, key). A request claims its key before its work runs,
// the work's own transaction stamps the row (app/db/change-witness.server.ts),
// and the answer is kept after it. Everything here is a conditional write in
// a BEGIN IMMEDIATE transaction, so two processes cannot both claim a key.
import { and, eq, lt } from "drizzle-orm";
import { engine, type Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { idempotencyKeys, type IdempotencyKeyRow } from "~/db/schema";
import { idempotencyLeaseMs } from "~/utils/env-settings.server";
import { UnavailableError } from "~/utils/errors";

/**
 * How long a claim belongs to the request that made it without news from
 * it (IDEMPOTENCY_LEASE_MS, 10 s): the request renews it three times as
 * often while it runs, so a claim whose process died is free again within this.
 */
export const claimRenewMs = () => Math.ceil(idempotencyLeaseMs() / 3);
/** Keys are kept at least a day; the sweep removes them after this. */
export const KEY_RETENTION_MS = 25 * 60 * 60 * 1000;

export type KeptAnswer = {
  flavour: string;
  status: number;
  location: string | null;
  headers: [string, string][];
  body: Buffer;
};

export type Claim =
  | { outcome: "run"; id: number }
  | { outcome: "replay"; id: number; answer: KeptAnswer }
  | { outcome: "mismatch" }
  | { outcome: "busy" }
  /** The change committed but its answer was never kept (the process died between). */
  | { outcome: "answer-lost" };

function keptAnswerOf(row: IdempotencyKeyRow): KeptAnswer {
  return {
    flavour: row.flavour ?? "api",
    status: row.status ?? 200,
    location: row.location,
    headers: row.headers ? (JSON.parse(row.headers) as [string, string][]) : [],
    body: row.body ?? Buffer.alloc(0),
  };
}

/** Claims `key` for `userId`'s request, or says how the request must be answered instead. */
export async function claimIdempotencyKey(
  claim: { userId: number; key: string; fingerprint: string },
  now = Date.now(),
): Promise<Claim> {
  return await immediate(async (tx) => {
    const row = (
      await tx
        .select()
        .from(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.userId, claim.userId),
            eq(idempotencyKeys.key, claim.key),
          ),
        )
        .limit(1)
    )[0];
    const leaseUntil = new Date(now + idempotencyLeaseMs());
    if (!row)
      return { outcome: "run", id: await newClaim(tx, claim, leaseUntil) };
    if (row.fingerprint !== claim.fingerprint) return { outcome: "mismatch" };
    if (row.state === "done")
      return { outcome: "replay", id: row.id, answer: keptAnswerOf(row) };
    if (row.leaseUntil.getTime() > now) return { outcome: "busy" };
    if (row.effectAt) return { outcome: "answer-lost" };
    // A claim whose request died, or lost touch, before changing anything:
    // run it now, under a new claim id. The old request, if it still runs,
    // holds the old id, and its stamp finds no claim to commit with.
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.id, row.id));
    return { outcome: "run", id: await newClaim(tx, claim, leaseUntil) };
  });
}

/** A running claim of `claim.key`, held until `leaseUntil`; answers its id. */
async function newClaim(
  tx: Tx,
  claim: { userId: number; key: string; fingerprint: string },
  leaseUntil: Date,
): Promise<number> {
  const [row] = await tx
    .insert(idempotencyKeys)
    .values({ ...claim, state: "running", leaseUntil })
    .returning({ id: idempotencyKeys.id });
  return row!.id;
}

/** The request behind claim `id` is still running. */
export async function renewIdempotencyClaim(id: number, now = Date.now()) {
  await immediate(
    (tx) =>
      tx
        .update(idempotencyKeys)
        .set({ leaseUntil: new Date(now + idempotencyLeaseMs()) })
        .where(
          and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, "running")),
        ),
    { bookkeeping: true },
  );
}

/**
 * Called inside the change's transaction: the work behind claim `id`
 * commits. A claim that is no longer this request's (its lease lapsed and a
 * repeat took the key over) makes the change roll back, 503: the repeat
 * does the work, once.
 */
export async function stampIdempotencyEffect(
  tx: Tx,
  id: number,
  now = Date.now(),
) {
  const stamped = await tx
    .update(idempotencyKeys)
    .set({ effectAt: new Date(now) })
    .where(
      and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, "running")),
    );
  if (changedRows(stamped) !== 1) throw new UnavailableError();
}

/** Whether the work behind claim `id` changed something. */
export async function idempotencyEffectMade(id: number): Promise<boolean> {
  const row = (
    await db
      .select({ effectAt: idempotencyKeys.effectAt })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.id, id))
      .limit(1)
  )[0];
  return Boolean(row?.effectAt);
}

/**
 * Keeps the answer of claim `id`: from now on a repeat gets it. The answer
 * of a change of money or membership is kept as firmly as the change (by
 * the synchronous standby too), so a repeat after a failover finds it.
 */
export async function keepIdempotentAnswer(
  id: number,
  answer: KeptAnswer,
  { moneyOrMembership = false }: { moneyOrMembership?: boolean } = {},
) {
  await immediate(
    (tx) =>
      tx
        .update(idempotencyKeys)
        .set({
          state: "done",
          flavour: answer.flavour,
          status: answer.status,
          location: answer.location,
          headers: JSON.stringify(answer.headers),
          body: answer.body,
        })
        .where(eq(idempotencyKeys.id, id)),
    { bookkeeping: true, moneyOrMembership },
  );
}

/**
 * Before a kept answer is given again: a commit that waits for the
 * synchronous standby, which then holds everything committed before it,
 * the change and its kept answer too. The first answer may have been a
 * 503 because the standby did not confirm; the repeat says success only
 * once it has.
 */
export async function confirmKeptAnswer(id: number) {
  if (engine !== "postgres") return; // nothing to confirm: one file, one machine
  await immediate(
    (tx) =>
      tx
        .update(idempotencyKeys)
        .set({ state: "done" })
        .where(eq(idempotencyKeys.id, id)),
    { bookkeeping: true, moneyOrMembership: true },
  );
}

/** Frees claim `id` (nothing changed): the key may be sent again with any values. */
export async function releaseIdempotencyKey(id: number) {
  await immediate(
    (tx) =>
      tx
        .delete(idempotencyKeys)
        .where(
          and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, "running")),
        ),
    { bookkeeping: true },
  );
}

/** The sweep: keys older than the retention go. */
export async function sweepIdempotencyKeys(now = Date.now()) {
  return changedRows(
    await immediate(
      (tx) =>
        tx
          .delete(idempotencyKeys)
          .where(
            lt(idempotencyKeys.createdAt, new Date(now - KEY_RETENTION_MS)),
          ),
      { bookkeeping: true },
    ),
  );
}

// The guard (app/pipeline/idempotency-guard.server.ts) watches whether the
// request's own transaction changed something through this scope.
export { withChangeWitness } from "~/db/change-witness.server";
// …and what the synchronous standby confirmed of it.
export {
  withStandbyConfirmation,
  type StandbyConfirmation,
} from "~/db/standby-confirmation.server";
