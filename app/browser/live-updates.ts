// Live pages in the browser (docs/product-rules.md#live-pages,
// docs/decisions/1010-live-pages-over-server-sent-events.md): one EventSource per tab on GET /api/events, opened
// after hydration and the load event (boot work waits for both: docs/decisions/archive/0841-boot-work-after-load-and-first-paint.md). An
// event says what changed; when it concerns the page on screen, the page
// reloads its own data through its loaders (useRevalidator), which keeps
// what the person is typing: inputs are uncontrolled and keep their keys.
// After a reconnect, and when the tab comes back into view, the page
// revalidates too, in case it missed something.
import {
  startTransition,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import {
  href,
  useFetchers,
  useLocation,
  useNavigation,
  useRevalidator,
} from "react-router";
import type { LiveMessage } from "~/domain/live-message";

export const LIVE_EVENTS_PATH = "/api/events";

// The pages of one bet: these paths and any page below them.
function betPages(betId: number): string[] {
  const id = String(betId);
  return [
    href("/bet/:id", { id }),
    href("/settle-bet/:id", { id }),
    href("/propose-settlement/:id", { id }),
    href("/payment/:id", { id }),
    href("/settlements/:id/approve", { id }),
    href("/settlements/:id/reject", { id }),
  ];
}
// Pages that list bets or their money, whichever bet changed.
const BET_LISTS = new Set<string>([
  href("/"),
  href("/my-bets"),
  href("/notifications"),
  href("/financial-history"),
  href("/profile"),
]);
const FRIEND_PAGES = new Set<string>([
  href("/friends"),
  href("/search"),
  href("/profile"),
]);

/**
 * Whether `message` concerns the page at `pathname`. Activity concerns every
 * page of the app shell: the header's unread count is on all of them.
 */
export function concernsPage(message: LiveMessage, pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  switch (message.type) {
    case "activity":
      return true;
    case "friends":
      return FRIEND_PAGES.has(path);
    case "bet": {
      if (BET_LISTS.has(path)) return true;
      return betPages(message.betId).some(
        (page) => path === page || path.startsWith(`${page}/`),
      );
    }
  }
}

type Listener = (message: LiveMessage | "missed") => void;

const listeners = new Set<Listener>();
let source: EventSource | null = null;
let lastId: string | null = null;
let retryMs = 2_000;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

function emit(message: LiveMessage | "missed") {
  for (const listener of listeners) listener(message);
}

/**
 * Opens the stream. `again` says a stream was open or refused before: its
 * first opening then counts as a reconnect too.
 */
function connect(after: () => number, again = false) {
  const resume = lastId ?? String(after());
  const es = new EventSource(`${LIVE_EVENTS_PATH}?after=${resume}`);
  source = es;
  let opened = again;
  es.onopen = () => {
    retryMs = 2_000;
    // A reconnect (the browser's own after a drop, or ours after a refusal)
    // may have missed events older than the server keeps, or the server was
    // replaced: look again. Only once the stream is open, so never while
    // offline: the service worker would answer that reload with the page's
    // read-only kept copy.
    if (opened) emit("missed");
    opened = true;
  };
  es.onmessage = (event: MessageEvent<string>) => {
    if (event.lastEventId) lastId = event.lastEventId;
    try {
      emit(JSON.parse(event.data) as LiveMessage);
    } catch {
      // Not ours: ignored.
    }
  };
  es.onerror = () => {
    // The browser retries by itself unless the answer was refused (401,
    // 429, 503): then it gives up, and we try again later, backing off.
    if (es.readyState !== EventSource.CLOSED) return;
    source = null;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => whenOnline(reconnect), retryMs);
    retryMs = Math.min(retryMs * 2, 60_000);
  };
  const reconnect = () => {
    if (listeners.size > 0 && !source) connect(after, true);
  };
}

function onOnlineChange(change: () => void) {
  addEventListener("online", change);
  addEventListener("offline", change);
  return () => {
    removeEventListener("online", change);
    removeEventListener("offline", change);
  };
}

/** Whether the browser says it is online (always, on the server). */
function useOnline() {
  return useSyncExternalStore(
    onOnlineChange,
    () => navigator.onLine !== false,
    () => true,
  );
}

/** Runs `run` now, or once the browser is back online. */
function whenOnline(run: () => void) {
  if (navigator.onLine !== false) run();
  else addEventListener("online", run, { once: true });
}

function afterLoad(run: () => void) {
  if (document.readyState === "complete") run();
  else addEventListener("load", run, { once: true });
}

/**
 * Keeps the page on screen up to date. `cursor` is the newest live event
 * id when the page's data was read: events after it are sent at once, so
 * nothing between the read and the stream opening is lost.
 */
export function useLiveUpdates(cursor: number) {
  const revalidator = useRevalidator();
  const location = useLocation();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const state = useRef({ pathname: location.pathname, cursor });
  state.current.pathname = location.pathname;
  state.current.cursor = Math.max(state.current.cursor, cursor);
  // A revalidation started while a submission, a fetcher's send (the offline
  // queue's) or a navigation loads would interrupt it and load its data
  // again: the first answer's flash message (read once, then cleared) would
  // be lost. Such a reload waits for all of them to be idle.
  const busy =
    navigation.state !== "idle" ||
    revalidator.state !== "idle" ||
    fetchers.some((fetcher) => fetcher.state !== "idle");
  // Reloads asked for, and the last one done. A reload is asked in a
  // transition because the router's own updates are transitions too, and
  // React renders the transitions pending together (react.dev, useTransition
  // caveats): the effect below then sees the router's state as it stands,
  // never a render behind it. Read from a timer instead, `busy` could miss a
  // navigation the router had started but React not yet drawn (CI lost
  // "You joined the bet!" that way on a loaded machine).
  const [asked, setAsked] = useState(0);
  const done = useRef(0);
  // Offline, a reload would fail, and the service worker turns a failed
  // data load into the page's read-only kept copy: it waits to be online.
  const online = useOnline();
  useEffect(() => {
    if (busy || !online || asked === done.current) return;
    done.current = asked;
    void revalidator.revalidate();
  }, [asked, busy, online, revalidator]);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Several events in a burst (a join tells the bet and the activity) make
    // one reload of the page's data.
    const reload = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        startTransition(() => setAsked((n) => n + 1));
      }, 100);
    };
    const listener: Listener = (message) => {
      if (message === "missed" || concernsPage(message, state.current.pathname))
        reload();
    };
    let hiddenAt = 0;
    const onVisibility = () => {
      if (document.visibilityState === "hidden") hiddenAt = Date.now();
      else if (hiddenAt) reload();
    };
    listeners.add(listener);
    document.addEventListener("visibilitychange", onVisibility);
    afterLoad(() => {
      if (!source && listeners.size > 0) connect(() => state.current.cursor);
    });
    return () => {
      clearTimeout(timer);
      listeners.delete(listener);
      document.removeEventListener("visibilitychange", onVisibility);
      if (listeners.size === 0) {
        source?.close();
        source = null;
        clearTimeout(retryTimer);
      }
    };
  }, []);
}
