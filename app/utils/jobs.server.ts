// Periodic housekeeping inside the server process. Reads never write (a
// GET computes expiry itself); this sweep only stores what reads already show.
import { cancelExpiredBets } from "~/models/bet.server";
import { deleteExpiredSessions } from "./session.server";

const SWEEP_INTERVAL_MS = 60_000;
type Job = () => void;
const jobs: Job[] = [deleteExpiredSessions, () => void cancelExpiredBets()];
let started = false;

export function registerJob(job: Job) {
  jobs.push(job);
}

export function runJobsOnce() {
  for (const job of jobs) {
    try {
      job();
    } catch (error) {
      console.error("background job failed", error);
    }
  }
}

export function startBackgroundJobs() {
  if (started || process.env.VITEST) return;
  started = true;
  setInterval(runJobsOnce, SWEEP_INTERVAL_MS).unref();
}
