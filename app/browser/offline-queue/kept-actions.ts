// The actions kept on this device, as the header's list and signing out
// read and change them (docs/decisions/1045-offline-actions-queue.md). Loaded
// with the header: the list opens, and signing out asks, with the network
// gone too. Sending them is ./queue.ts, loaded when something waits.
import { markKey } from "../unsent-keys";
import {
  forgetCountsExcept,
  queueOwner,
  voidBefore,
  writeCounts,
} from "./counts";
import { publishCounts } from "./keep-for-later";
import { allKept, deleteKept, getKept, type KeptAction } from "./store";

const LOCK = "fairshake-offline-queue";

/** This person's kept actions, oldest first; drops everyone else's, and theirs from before someone else signed in. */
export async function keptFor(userId: number) {
  const all = await allKept();
  const since = voidBefore(userId);
  const mine: KeptAction[] = [];
  for (const action of all) {
    if (action.userId !== userId || action.createdAt < since)
      await deleteKept(action.key);
    else mine.push(action);
  }
  forgetCountsExcept(userId);
  return mine.sort((a, b) => a.createdAt - b.createdAt);
}

/** Cancels a waiting action (never sent) or dismisses a refused one. */
export async function removeKept(userId: number, key: string) {
  await exclusively(async () => {
    const action = await getKept(key);
    if (action && action.userId === userId) await deleteKept(key);
  });
  markKey(key, "answered");
  await publishCounts(userId);
}

/** A kept form the person sent again by hand, and that got an answer. */
export async function forgetAnswered(key: string) {
  await exclusively(async () => {
    await deleteKept(key);
  });
  const userId = queueOwner();
  if (userId !== null) await publishCounts(userId);
}

/** Signing out: every action of this person goes, sent or not. */
export async function discardAll(userId: number) {
  await exclusively(async () => {
    for (const action of await allKept())
      if (action.userId === userId) await deleteKept(action.key);
  });
  writeCounts(userId, { waiting: 0, refused: 0 });
}

/** Runs `work` while this tab holds the queue's lock; `skipIfBusy`: not at all if another does. */
export async function exclusively(
  work: () => Promise<void>,
  skipIfBusy = false,
) {
  if (!("locks" in navigator)) return work();
  await navigator.locks.request(
    LOCK,
    { ifAvailable: skipIfBusy },
    async (lock) => {
      if (lock) await work();
    },
  );
}
