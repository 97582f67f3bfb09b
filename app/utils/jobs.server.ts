// Background work inside the server process: a periodic sweep, the
// notification outbox and start-up warm-ups. Reads never write (a GET
// computes expiry itself); the sweep only stores what reads already show.
import { cancelExpiredBets } from "~/models/bet.server";
import {
  deliverDueNotifications,
  onNotificationsQueued,
} from "~/models/outbox.server";
import { deleteExpiredSessions } from "./session.server";
import { warmShareImageRenderer } from "./share-image.server";

const SWEEP_INTERVAL_MS = 60_000;
/** How often the outbox looks for due deliveries (retries); new events wake it at once. */
const OUTBOX_POLL_MS = Number(process.env.OUTBOX_POLL_MS) || 2_000;
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

// One delivery pass at a time in this process; a wake-up during a pass
// runs another pass after it, so nothing queued meanwhile waits for the poll.
let delivering: Promise<void> | null = null;
let again = false;
function deliverNotifications() {
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

export function startBackgroundJobs() {
  if (started || process.env.VITEST) return;
  started = true;
  setTimeout(warmShareImageRenderer, 0).unref();
  setInterval(runJobsOnce, SWEEP_INTERVAL_MS).unref();
  onNotificationsQueued(deliverNotifications);
  setInterval(deliverNotifications, OUTBOX_POLL_MS).unref();
  deliverNotifications();
}
