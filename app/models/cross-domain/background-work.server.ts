// Background work inside the server process: the sweep, the notification
// outbox and start-up warm-ups. Reads never write (a GET computes expiry
// itself); the sweep stores what reads already show and runs the due jobs of
// the database scheduler (app/models/jobs/jobs.server.ts), each exactly once
// across restarts, crashes and several processes. The outbox delivers what
// the activity writes (app/models/notifications/outbox.server.ts): its rows
// are claimed by the same conditional update and retried after the same
// backoff (app/models/jobs/claims.server.ts), but the claim commits before the send.
import { cancelExpiredBets } from "../bets/bet-lists.server";
import { runDueJobs, type JobHandler } from "../jobs/jobs.server";
import {
  deliverDueNotifications,
  onNotificationsQueued,
} from "../notifications/outbox.server";
import { remindPayment, markOverdue } from "../payments/dues.server";
import {
  remindProposal,
  timeOutProposal,
} from "../settlements/settlement-sweep.server";
import { remindReferee } from "../settlements/settlement-referee.server";
import { deleteExpiredSessions } from "../accounts/session.server";
import { sweepIdempotencyKeys } from "../requests/idempotency-keys.server";
import { sweepAbuseWindows } from "../requests/abuse-limits.server";
import { countSweep, setSweepLag } from "~/utils/metrics.server";
import { onStop } from "~/utils/stop-hooks.server";
import { sweepIntervalMs } from "../bets/windows.server";
import { outsidePrimaryRegion } from "~/utils/env.server";
import { outboxPollMs, underVitest } from "~/utils/env-settings.server";
import { sweepLiveEvents } from "../notifications/live-events.server";

/** How often the outbox looks for due retries; a new event wakes it at once. */
const OUTBOX_POLL_MS = outboxPollMs();

/** Every job kind this process runs, by name (the `jobs.kind` column). */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  settlement_timeout: timeOutProposal,
  settlement_reminder: remindProposal,
  referee_reminder: remindReferee,
  payment_due: remindPayment,
  payment_overdue: markOverdue,
};

/** One pass of the sweep; exported for tests and scripts. */
export async function sweepOnce(now = Date.now()) {
  const duties: [string, () => Promise<void>][] = [
    ["sessions", async () => void (await deleteExpiredSessions())],
    ["idempotency keys", async () => void (await sweepIdempotencyKeys(now))],
    ["abuse windows", async () => void (await sweepAbuseWindows(now))],
    ["expired bets", async () => void (await cancelExpiredBets(now))],
    ["live events", async () => void (await sweepLiveEvents(now))],
    [
      "jobs",
      async () => {
        const report = await runDueJobs({ handlers: JOB_HANDLERS, now });
        setSweepLag(report.lagMs / 1000);
        if (report.failed > 0) throw new Error(`${report.failed} jobs failed`);
      },
    ],
  ];
  let ok = true;
  for (const [name, duty] of duties) {
    try {
      await duty();
    } catch (error) {
      ok = false;
      console.error(`sweep: ${name} failed`, error);
    }
  }
  countSweep(ok);
}

// One delivery pass at a time in this process; a wake-up during a pass
// runs another pass after it, so nothing queued meanwhile waits for the poll.
let delivering: Promise<void> | null = null;
let again = false;
let stopping = false;
function deliverNotifications() {
  if (stopping) return;
  if (delivering) {
    again = true;
    return;
  }
  delivering = deliverDueNotifications()
    .then(() => undefined)
    .catch((error) => console.error("outbox delivery failed", error))
    .finally(() => {
      delivering = null;
      if (again) {
        again = false;
        deliverNotifications();
      }
    });
}

let started = false;

// One sweep at a time: a slow one (a database that is waiting) is not joined
// by the next tick's.
let sweeping: Promise<void> | null = null;
function sweepInTurn() {
  sweeping ??= sweepOnce().finally(() => (sweeping = null));
}

export function startBackgroundJobs() {
  // Outside the primary region the database is a replica: every write,
  // background work's included, happens in the primary region.
  if (started || underVitest() || outsidePrimaryRegion()) return;
  started = true;
  // Once at start, so what fell due while the server was down runs now.
  setTimeout(sweepInTurn, 0).unref();
  const sweep = setInterval(sweepInTurn, sweepIntervalMs());
  sweep.unref();
  onNotificationsQueued(deliverNotifications);
  const poll = setInterval(deliverNotifications, OUTBOX_POLL_MS);
  poll.unref();
  deliverNotifications();
  // A graceful stop lets the delivery in flight finish (it is claimed; cut
  // off, it would be given up rather than sent twice) and starts no more.
  onStop(async () => {
    stopping = true;
    clearInterval(sweep);
    clearInterval(poll);
    await delivering;
  });
}
