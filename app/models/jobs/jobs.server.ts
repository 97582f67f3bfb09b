// The scheduler: work that must happen later is a row in `jobs`, so it
// survives restarts and crashes and runs once whatever the number of
// processes (docs/operations.md#workers).
//
// `runDueJobs` runs a job (database work: timeouts, reminders, due dates):
// claim, the handler's writes and the done marker commit in one BEGIN
// IMMEDIATE transaction, claimed by a conditional UPDATE. A crash before the
// commit leaves the job due; after it, done. Exactly once.
import crypto from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { db, immediate, type Tx } from "~/db/client.server";
import { jobs, type Job } from "~/db/schema";

export type JobHandler = (tx: Tx, job: Job, now: number) => Promise<void>;

/** A worker's name in `claimed_by`: process and a random tag. */
export const WORKER_ID = `${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
/** A claim older than this is abandoned (its worker died) and may be retaken. */
export const LEASE_MS = 5 * 60_000;
/** A job failing this many times is given up (marked done with its error). */
export const MAX_ATTEMPTS = 8;

/** Growing delays between attempts: 10 s, 20 s, 40 s … at most an hour. */
export const retryDelayMs = (attempts: number) =>
  Math.min(3_600_000, 10_000 * 2 ** Math.max(0, attempts - 1));

/**
 * Schedules a job in the caller's transaction (so it exists exactly when the
 * change that needs it commits). The same `key` twice is one job.
 */
export async function scheduleJob(
  tx: Tx | typeof db,
  job: {
    kind: string;
    subjectId: number;
    runAt: number;
    key: string;
    payload?: Record<string, unknown> | null;
  },
) {
  await tx
    .insert(jobs)
    .values({
      kind: job.kind,
      subjectId: job.subjectId,
      key: job.key,
      payload: job.payload ?? null,
      runAt: new Date(job.runAt),
    })
    .onConflictDoNothing({ target: jobs.key });
}

const claimable = (now: number) =>
  and(
    isNull(jobs.doneAt),
    lte(jobs.runAt, new Date(now)),
    or(isNull(jobs.claimedAt), lte(jobs.claimedAt, new Date(now - LEASE_MS))),
  );

export type SweepReport = {
  ran: number;
  skipped: number;
  failed: number;
  /** How long the oldest due job had waited when the sweep reached it (ms). */
  lagMs: number;
};

/**
 * Runs every due job whose kind has a handler, each in its own immediate
 * transaction with the claim and the done marker.
 */
export async function runDueJobs({
  handlers,
  now = Date.now(),
  limit = 200,
  workerId = WORKER_ID,
}: {
  handlers: Record<string, JobHandler>;
  now?: number;
  limit?: number;
  workerId?: string;
}): Promise<SweepReport> {
  const kinds = Object.keys(handlers);
  const report: SweepReport = { ran: 0, skipped: 0, failed: 0, lagMs: 0 };
  if (kinds.length === 0) return report;
  const due = await db
    .select({ id: jobs.id, runAt: jobs.runAt })
    .from(jobs)
    .where(and(claimable(now), inArray(jobs.kind, kinds)))
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(limit);
  if (due[0]) report.lagMs = Math.max(0, now - due[0].runAt.getTime());
  for (const { id } of due) {
    try {
      const ran = await immediate(
        async (tx) => {
          const job = (
            await tx
              .update(jobs)
              .set({
                claimedAt: new Date(now),
                claimedBy: workerId,
                attempts: sql`${jobs.attempts} + 1`,
              })
              .where(and(eq(jobs.id, id), claimable(now)))
              .returning()
          )[0]!;
          if (!job) return false; // another process took it first
          await handlers[job.kind]!(tx, job, now);
          await tx
            .update(jobs)
            .set({ doneAt: new Date(now) })
            .where(eq(jobs.id, id));
          return true;
        },
        { durable: true },
      );
      if (ran) report.ran += 1;
      else report.skipped += 1;
    } catch (error) {
      report.failed += 1;
      await recordFailure(id, error, now);
    }
  }
  return report;
}

async function recordFailure(id: number, error: unknown, now: number) {
  console.error(`job ${id} failed`, error);
  await immediate(async (tx) => {
    const job = (
      await tx.select().from(jobs).where(eq(jobs.id, id)).limit(1)
    )[0];
    if (!job || job.doneAt) return;
    const attempts = job.attempts + 1;
    await tx
      .update(jobs)
      .set({
        attempts,
        lastError: String(error instanceof Error ? error.message : error).slice(
          0,
          500,
        ),
        claimedAt: null,
        claimedBy: null,
        runAt: new Date(now + retryDelayMs(attempts)),
        doneAt: attempts >= MAX_ATTEMPTS ? new Date(now) : null,
      })
      .where(and(eq(jobs.id, id), isNull(jobs.doneAt)));
  });
}

/** Jobs of a subject, for tests and the bet's own screens. */
export async function listJobs(subjectId: number, kind?: string) {
  return await db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.subjectId, subjectId),
        kind ? eq(jobs.kind, kind) : undefined,
      ),
    )
    .orderBy(asc(jobs.runAt), asc(jobs.id));
}
