// The header's count of actions kept on this device
// (docs/product-rules.md#shaky-connections): 'N waiting to send', 'N not
// sent', opening the list of them; and what sends them when the connection
// returns. The sender's code comes only when something waits
// (docs/decisions/1045-offline-actions-queue.md).
import { useEffect, useState } from "react";
import { useLocation, useSubmit } from "react-router";
import {
  claimDevice,
  othersKeptOnDevice,
  readCounts,
  setQueueOwner,
  useQueueCounts,
} from "~/browser/offline-queue/counts";
import { discardAll, keptFor } from "~/browser/offline-queue/kept-actions";
import KeptList from "./offline-queue-list";
import { useT, type Translate } from "~/components/i18n";

// The sender: loaded only when something waits and the connection may be back.
const loadQueue = () => import("~/browser/offline-queue/queue");
// Asked again this long after the sender's code failed to load.
const SENDER_RETRY_MS = 5_000;

export function OfflineQueue({ userId }: { userId: number }) {
  const t = useT();
  const { waiting, refused } = useQueueCounts(userId);
  const [open, setOpen] = useState(false);
  useSendWhenOnline(userId, waiting);
  if (waiting + refused === 0) return null;
  const label = [
    waiting > 0 ? t("offline.waitingCount", { count: waiting }) : null,
    refused > 0 ? t("offline.refusedCount", { count: refused }) : null,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <div className="relative">
      <button
        type="button"
        className={`inline-flex min-h-11 items-center rounded-lg px-2 text-xs font-semibold ${refused > 0 ? "text-red-700" : "text-amber-700"} hover:bg-slate-100`}
        aria-expanded={open}
        aria-controls="kept-actions"
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      {open ? (
        <KeptList userId={userId} onClose={() => setOpen(false)} />
      ) : null}
    </div>
  );
}

/**
 * Sends what waits when there is reason to think the connection is back:
 * this page loaded, the browser came online, a page loaded its data, another
 * tab kept something, or the service worker's Background Sync said so.
 */
function useSendWhenOnline(userId: number, waiting: number) {
  const submit = useSubmit();
  const { key: locationKey } = useLocation();
  useEffect(() => {
    setQueueOwner(userId);
    // Another person's actions are never kept past someone else signing in.
    const arrived = claimDevice(userId);
    if (arrived || othersKeptOnDevice(userId))
      void keptFor(userId).catch(() => {});
    return () => setQueueOwner(null);
  }, [userId]);
  useEffect(() => {
    let retry: ReturnType<typeof setTimeout> | undefined;
    let current = true;
    const sendNow = () => {
      clearTimeout(retry);
      // Offline, the sender's code could not come: the online event comes back here.
      if (readCounts(userId).waiting === 0 || !navigator.onLine) return;
      void loadQueue()
        .then((queue) => queue.sendWaiting(userId, submit))
        .catch(() => {
          // Its code did not come (the line was not back yet though the
          // browser said online): nothing else would ask again on this page.
          if (current) retry = setTimeout(sendNow, SENDER_RETRY_MS);
        });
    };
    sendNow();
    const fromWorker = (event: MessageEvent) => {
      if ((event.data as { sendWaiting?: boolean })?.sendWaiting) sendNow();
    };
    window.addEventListener("online", sendNow);
    navigator.serviceWorker?.addEventListener("message", fromWorker);
    return () => {
      current = false;
      clearTimeout(retry);
      window.removeEventListener("online", sendNow);
      navigator.serviceWorker?.removeEventListener("message", fromWorker);
    };
  }, [userId, submit, waiting, locationKey]);
}

/**
 * Signing out with actions kept: asks first when any wait, then deletes
 * them all before the sign-out is sent. Answers whether to go on.
 */
export async function discardKeptBeforeSignOut(userId: number, t: Translate) {
  const { waiting, refused } = readCounts(userId);
  if (waiting + refused === 0) return true;
  if (
    waiting > 0 &&
    !window.confirm(t("offline.discardOnSignOut", { waiting }))
  )
    return false;
  setQueueOwner(null);
  await discardAll(userId).catch(() => {});
  return true;
}
