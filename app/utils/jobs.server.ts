// Background work inside the server process: a periodic sweep and start-up
// warm-ups. Reads never write (a GET computes expiry itself); the sweep only
// stores what reads already show.
import { cancelExpiredBets } from "~/models/bet.server";
import { deleteExpiredSessions } from "./session.server";
import { warmShareImageRenderer } from "./share-image.server";

const SWEEP_INTERVAL_MS = 60_000;
type Job = () => void;
const jobs: Job[] = [deleteExpiredSessions, () => void cancelExpiredBets()];
let started = false;

function runJobsOnce() {
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
  setTimeout(warmShareImageRenderer, 0).unref();
  setInterval(runJobsOnce, SWEEP_INTERVAL_MS).unref();
}
