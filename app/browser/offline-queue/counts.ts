// The small, always-loaded half of the offline queue
// (docs/decisions/1045-offline-actions-queue.md): who owns the queue in
// this tab, and how many of their actions wait or were refused. The counts
// are mirrored in localStorage by the queue (./queue.ts) so the header can
// show them, and every tab hear of a change, without loading the queue's
// code or opening IndexedDB on a page where nothing waits.
import { useSyncExternalStore } from "react";

export type QueueCounts = { waiting: number; refused: number };

const NONE: QueueCounts = { waiting: 0, refused: 0 };
const CHANGED = "fairshake-offline-queue";
const storageKey = (userId: number) => `fairshake-offline-queue:${userId}`;

let owner: number | null = null;

/** The signed-in person, set by the app's header; null when no one is. */
export function setQueueOwner(userId: number | null) {
  owner = userId;
}

export function queueOwner() {
  return owner;
}

export function readCounts(userId: number): QueueCounts {
  try {
    const raw = localStorage.getItem(storageKey(userId));
    const parsed = raw ? (JSON.parse(raw) as QueueCounts) : NONE;
    return { waiting: parsed.waiting | 0, refused: parsed.refused | 0 };
  } catch {
    return NONE;
  }
}

export function writeCounts(userId: number, counts: QueueCounts) {
  try {
    if (counts.waiting + counts.refused === 0)
      localStorage.removeItem(storageKey(userId));
    else localStorage.setItem(storageKey(userId), JSON.stringify(counts));
  } catch {
    // storage full or refused: the header misses a count, nothing is lost
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** Forgets every count this device keeps (another person signed in). */
export function forgetCountsExcept(userId: number) {
  try {
    for (const name of Object.keys(localStorage))
      if (
        name.startsWith("fairshake-offline-queue:") &&
        name !== storageKey(userId)
      )
        localStorage.removeItem(name);
  } catch {
    // nothing to forget
  }
}

function subscribe(listener: () => void) {
  window.addEventListener(CHANGED, listener);
  window.addEventListener("storage", listener); // another tab's change
  return () => {
    window.removeEventListener(CHANGED, listener);
    window.removeEventListener("storage", listener);
  };
}

/** This person's counts, kept up to date across tabs. */
export function useQueueCounts(userId: number) {
  const raw = useSyncExternalStore(
    subscribe,
    () => {
      const c = readCounts(userId);
      return `${c.waiting}/${c.refused}`;
    },
    () => "0/0",
  );
  const [waiting, refused] = raw.split("/").map(Number);
  return { waiting: waiting!, refused: refused! };
}

// Who last used the queue in this browser, and since when. Written at once
// (localStorage is synchronous), so another person's arrival voids what the
// one before kept even when deleting it from IndexedDB is cut short by
// leaving the page (docs/product-rules.md#acting-offline).
const DEVICE = "fairshake-offline-queue-device";
type DeviceOwner = { userId: number; since: number };

function readDevice(): DeviceOwner | null {
  try {
    return JSON.parse(localStorage.getItem(DEVICE) ?? "null") as DeviceOwner;
  } catch {
    return null;
  }
}

/** A signed-in page started for `userId`; true when someone else had used the queue here. */
export function claimDevice(userId: number) {
  const before = readDevice();
  if (before?.userId === userId) return false;
  try {
    // The first claim in this browser voids nothing already kept.
    localStorage.setItem(
      DEVICE,
      JSON.stringify({ userId, since: before ? Date.now() : 0 }),
    );
  } catch {
    // storage refused: the server's check before each send still holds
  }
  if (before) forgetCountsExcept(userId);
  return before !== null;
}

/** `userId`'s kept actions made before this moment are void: someone else signed in since. */
export function voidBefore(userId: number) {
  const device = readDevice();
  if (!device) return 0;
  return device.userId === userId ? device.since : Infinity;
}

/** Whether this device still counts someone else's kept actions. */
export function othersKeptOnDevice(userId: number) {
  try {
    return Object.keys(localStorage).some(
      (name) =>
        name.startsWith("fairshake-offline-queue:") &&
        name !== storageKey(userId),
    );
  } catch {
    return false;
  }
}
