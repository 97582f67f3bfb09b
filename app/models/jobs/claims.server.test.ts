// The one claim and the one backoff (docs/decisions/1032-one-claim-one-backoff.md),
// as the job queue uses them; the outbox's use is in
// app/models/notifications/outbox.server.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import { immediate } from "~/db/transactions.server";
import { afterFailure, backoffMs, MAX_ATTEMPTS } from "./claims.server";
import { listJobs, runDueJobs, scheduleJob } from "./jobs.server";
import { onPostgres } from "../../../tests/support/test-database";

let subject = 0;
async function aJob(kind: string, runAt: number) {
  subject += 1;
  await immediate((tx) =>
    scheduleJob(tx, {
      kind,
      subjectId: subject,
      runAt,
      key: `${kind}:${subject}`,
    }),
  );
  return subject;
}

afterEach(() => vi.restoreAllMocks());

describe("the backoff", () => {
  it("waits the base, four times longer after each failure, at most an hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, 5_000))).toEqual([
      5_000, 20_000, 80_000, 320_000, 1_280_000, 3_600_000, 3_600_000,
    ]);
    expect(backoffMs(2, 300)).toBe(1_200);
  });

  it("gives up on the eighth failure", () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(afterFailure(7, 10_000, 0)).toEqual({
      retryAt: 3_600_000,
      giveUp: false,
    });
    expect(afterFailure(8, 10_000, 0).giveUp).toBe(true);
  });
});

describe("the job queue on the claim", () => {
  it("a failing job is retried after the backoff, then given up with its error", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const start = 1_000_000;
    const id = await aJob("claims_test_fail", start);
    const handlers = {
      claims_test_fail: async () => {
        throw new Error("no luck");
      },
    };
    let now = start;
    const waits: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      const report = await runDueJobs({ handlers, now });
      expect(report).toMatchObject({ ran: 0, failed: 1 });
      const [job] = await listJobs(id, "claims_test_fail");
      expect(job!.attempts).toBe(i + 1);
      expect(job!.lastError).toBe("no luck");
      expect(job!.claimedAt).toBeNull();
      if (i < MAX_ATTEMPTS - 1) {
        expect(job!.doneAt).toBeNull();
        // Not before it is due again.
        const early = await runDueJobs({
          handlers,
          now: job!.runAt.getTime() - 1,
        });
        expect(early).toMatchObject({ ran: 0, failed: 0, skipped: 0 });
      } else expect(job!.doneAt!.getTime()).toBe(now);
      waits.push(job!.runAt.getTime() - now);
      now = job!.runAt.getTime();
    }
    expect(waits.slice(0, -1)).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, 10_000)),
    );
    // Given up: never claimed again.
    expect(await runDueJobs({ handlers, now: now + 86_400_000 })).toMatchObject(
      { ran: 0, failed: 0 },
    );
  });

  it("of two sweeps reaching for one due job at once, one runs it", async () => {
    const id = await aJob("claims_test_once", 2_000_000);
    let runs = 0;
    const handlers = {
      claims_test_once: async () => {
        runs += 1;
      },
    };
    const reports = await Promise.all([
      runDueJobs({ handlers, now: 2_000_000, workerId: "a" }),
      runDueJobs({ handlers, now: 2_000_000, workerId: "b" }),
    ]);
    expect(runs).toBe(1);
    expect(reports.map((r) => r.ran).sort()).toEqual([0, 1]);
    const [job] = await listJobs(id, "claims_test_once");
    expect(job).toMatchObject({ attempts: 1 });
    expect(job!.doneAt!.getTime()).toBe(2_000_000);
  });

  // PostgreSQL only: SQLite runs one write transaction at a time anyway.
  it.runIf(onPostgres())(
    "a sweep skips a job another process is running, without waiting for it to end",
    async () => {
      const id = await aJob("claims_test_held", 3_000_000);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const handlers = {
        claims_test_held: async () => {
          started();
          await held;
        },
      };
      const first = runDueJobs({ handlers, now: 3_000_000, workerId: "a" });
      await running;
      // The first sweep's transaction is open and holds the job's row: a
      // second sweep that waited on the row lock would never return here.
      const second = await runDueJobs({
        handlers,
        now: 3_000_000,
        workerId: "b",
      });
      expect(second).toMatchObject({ ran: 0, skipped: 1, failed: 0 });
      release();
      expect(await first).toMatchObject({ ran: 1, skipped: 0 });
      const [job] = await listJobs(id, "claims_test_held");
      expect(job).toMatchObject({ attempts: 1, claimedBy: "a" });
    },
  );
});
