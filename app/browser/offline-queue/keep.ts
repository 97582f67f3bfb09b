// Keeping a form the network failed to send (docs/decisions/1045-offline-actions-queue.md).
// Loaded with the forms, not lazily like the rest of the queue (./queue.ts):
// it runs when the network is gone, when no code can be fetched.
import { href } from "react-router";
import { queueOwner, writeCounts } from "./counts";
import { allKept, putKept, type KeptField } from "./store";

/**
 * Keeps a form the network failed to send, for its signed-in owner; false
 * when it cannot be kept (no one signed in, a chosen file, no IndexedDB),
 * and the form then says only 'Not sent'.
 */
export async function keepForLater(
  request: Request,
  key: string,
  form: FormData,
) {
  const userId = queueOwner();
  if (userId === null || typeof indexedDB === "undefined") return false;
  const fields: KeptField[] = [];
  for (const [name, value] of form) {
    if (typeof value === "string") fields.push([name, value]);
    else if (value.size === 0 && value.name === "")
      fields.push([name, { emptyFile: true }]);
    else return false; // a photo is not kept on the device
  }
  const url = new URL(request.url);
  const multipart = /^multipart\//i.test(
    request.headers.get("Content-Type") ?? "",
  );
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  try {
    await putKept({
      key,
      userId,
      action: url.pathname + url.search,
      encType: multipart
        ? "multipart/form-data"
        : "application/x-www-form-urlencoded",
      fields,
      page: location.pathname,
      what: describe(url.pathname, text("intent")),
      about: text("title") || document.title.replace(/\s*·\s*Fairshake$/, ""),
      createdAt: Date.now(),
      state: "waiting",
    });
  } catch {
    return false;
  }
  await publishCounts(userId);
  askForBackgroundSync();
  return true;
}

// Where the browser has Background Sync, the service worker (public/sw.js)
// tells an open page when the connection is back.
function askForBackgroundSync() {
  void navigator.serviceWorker?.ready
    .then((registration) =>
      (
        registration as ServiceWorkerRegistration & {
          sync?: { register(tag: string): Promise<void> };
        }
      ).sync?.register("fairshake-offline-queue"),
    )
    .catch(() => {});
}

/** What the list calls an action, from where it posts. */
function describe(path: string, intent: string) {
  if (path === href("/create-bet")) return "Create a bet";
  if (/^\/(bet\/\d+\/edit|edit-bet\/\d+)$/.test(path)) return "Edit a bet";
  if (/^\/bet\/\d+\/rule$/.test(path)) return "Referee's decision";
  if (/^\/propose-settlement\//.test(path)) return "Propose a settlement";
  if (/^\/settlements\/\d+\/approve$/.test(path)) return "Approve a settlement";
  if (/^\/settlements\/\d+\/reject$/.test(path)) return "Reject a settlement";
  if (/^\/settle-bet\//.test(path))
    return intent ? `Settlement: ${intent.replace(/-/g, " ")}` : "Settlement";
  if (path === href("/profile/edit")) return "Edit profile";
  if (path === href("/profile/notifications")) return "Notification settings";
  if (path === href("/friends"))
    return intent ? `Friends: ${intent.replace(/-/g, " ")}` : "Friends";
  if (/^\/bet\/\d+$/.test(path)) {
    if (intent === "join") return "Join a bet";
    if (intent === "nudge") return "Nudge";
    return intent ? `Bet: ${intent.replace(/-/g, " ")}` : "Bet";
  }
  return "Form";
}

/** Mirrors this person's counts for the header and the other tabs. */
export async function publishCounts(userId: number) {
  const mine = (await allKept()).filter((a) => a.userId === userId);
  writeCounts(userId, {
    waiting: mine.filter((a) => a.state === "waiting").length,
    refused: mine.filter((a) => a.state === "refused").length,
  });
}
