// Background work inside the server process: the sweep and start-up
// warm-ups. Reads never write (a GET computes expiry itself); the sweep
// stores what reads already show and runs the due jobs of the database
// scheduler (app/models/jobs.server.ts), each exactly once across restarts,
// crashes and several processes.
import { cancelExpiredBets } from "~/models/bet.server";
import { runDueJobs, type JobHandler } from "~/models/jobs.server";
import { remindPayment, markOverdue } from "~/models/dues.server";
import {
  remindProposal,
  remindReferee,
  timeOutProposal,
} from "~/models/settlement.server";
import { deleteExpiredSessions } from "./session.server";
import { warmShareImageRenderer } from "./share-image.server";
import { sweepIntervalMs } from "./windows.server";

/** Every job kind this process runs, by name (the `jobs.kind` column). */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  settlement_timeout: timeOutProposal,
  settlement_reminder: remindProposal,
  referee_reminder: remindReferee,
  payment_due: remindPayment,
  payment_overdue: markOverdue,
};

/** One pass of the sweep; exported for tests and scripts. */
export function sweepOnce(now = Date.now()) {
  const duties: [string, () => void][] = [
    ["sessions", () => deleteExpiredSessions()],
    ["expired bets", () => void cancelExpiredBets(now)],
    ["jobs", () => void runDueJobs({ handlers: JOB_HANDLERS, now })],
  ];
  for (const [name, duty] of duties) {
    try {
      duty();
    } catch (error) {
      console.error(`sweep: ${name} failed`, error);
    }
  }
}

let started = false;

export function startBackgroundJobs() {
  if (started || process.env.VITEST) return;
  started = true;
  setTimeout(warmShareImageRenderer, 0).unref();
  // Once at start, so what fell due while the server was down runs now.
  setTimeout(() => sweepOnce(), 0).unref();
  setInterval(() => sweepOnce(), sweepIntervalMs()).unref();
}
