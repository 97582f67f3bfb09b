// The scheduler: work that must happen later is a row in `jobs`, so it
// survives restarts and crashes and runs once whatever the number of
// processes (docs/operations.md#workers).
//
// `runDueJobs` runs a job (database work: timeouts, reminders, due dates):
// claim, the handler's writes and the done marker commit in one BEGIN
// IMMEDIATE transaction, claimed by the one conditional UPDATE of
// ./claims.server.ts. A crash before the commit leaves the job due; after
// it, done. Exactly once. A failure is retried after that module's backoff.
import crypto from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";
import { jobs, type Job } from "~/db/schema";
import { afterFailure, claim, dueRows, type WorkQueue } from "./claims.server";

export type JobHandler = (tx: Tx, job: Job, now: number) => Promise<void>;

/** A worker's name in `claimed_by`: process and a random tag. */
export const WORKER_ID = `${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
/** A claim older than this is abandoned (its worker died) and may be retaken. */
export const LEASE_MS = 5 * 60_000;
/** A failed job's first retry waits this long (then ./claims.server.ts's backoff). */
const RETRY_BASE_MS = 10_000;

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

/** The job queue as the claim sees it; `workerId` signs its claims. */
const jobQueue = (workerId: string): WorkQueue<typeof jobs> => ({
  table: jobs,
  dueAt: jobs.runAt,
  open: (now) =>
    and(
      isNull(jobs.doneAt),
      or(isNull(jobs.claimedAt), lte(jobs.claimedAt, new Date(now - LEASE_MS))),
    ),
  hold: (now) => ({ claimedAt: new Date(now), claimedBy: workerId }),
});

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
  const queue = jobQueue(workerId);
  const due = await dueRows(queue, now, {
    where: inArray(jobs.kind, kinds),
    limit,
  });
  if (due[0]) report.lagMs = Math.max(0, now - due[0].dueAt);
  for (const { id } of due) {
    try {
      const ran = await immediate(
        async (tx) => {
          const job = await claim(tx, queue, id, now);
          if (!job) return false; // another process took it first
          await handlers[job.kind]!(tx, job, now);
          await tx
            .update(jobs)
            .set({ doneAt: new Date(now) })
            .where(eq(jobs.id, id));
          return true;
        },
        // A job may settle or void a bet (an answer window running out).
        { durable: true, moneyOrMembership: true },
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
    const { retryAt, giveUp } = afterFailure(attempts, RETRY_BASE_MS, now);
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
        runAt: new Date(retryAt),
        doneAt: giveUp ? new Date(now) : null,
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
