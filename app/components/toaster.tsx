import { useEffect, useState } from "react";
import { whenIdle } from "~/utils/idle";
import { tone, type ToastMessage } from "./toast-look";

/** The flash message as plain HTML: shown without JavaScript (docs/product-rules.md#forms-and-messages). */
export function StaticToast({ toast }: { toast: ToastMessage | null }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-20 z-40 flex justify-center px-3"
    >
      {toast ? (
        <div
          className={`pointer-events-auto w-full max-w-sm rounded-lg border-l-4 bg-white p-3 shadow-lg ${tone[toast.type]}`}
        >
          <p className="text-sm font-semibold">{toast.title}</p>
          {toast.description ? (
            <p className="text-sm text-slate-700">{toast.description}</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

// The Radix part, in a chunk of its own: in the root chunk it was 12 KB of
// every hydrated page's 130 KB of gzipped script, evaluated with the page
// and mounted right after hydration, for a toast most loads do not have
// (docs/decisions/archive/1055-main-thread-at-the-floor.md).
type LiveComponent = (typeof import("./live-toaster"))["LiveToaster"];
let live: LiveComponent | null = null;
const loadLive = () =>
  import("./live-toaster").then((m) => (live = m.LiveToaster));

/**
 * Server HTML first (StaticToast); Radix Toast takes over the same message
 * once its chunk is in: at once when there is a toast to show, else when
 * the browser is next idle (whenIdle: IDLE_WAIT_MS at most), so that it is
 * there for the toasts that come with later navigations. If the chunk
 * cannot be had (offline, never kept), the message stays as the server
 * wrote it, and the next toast tries again.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const [Live, setLive] = useState<{ Component: LiveComponent } | null>(() =>
    live ? { Component: live } : null,
  );
  useEffect(() => {
    if (Live) return;
    let gone = false;
    const load = () =>
      void loadLive().then(
        (Component) => {
          if (!gone) setLive({ Component });
        },
        () => {},
      );
    // A toast on screen wants its timer and its swipe now.
    if (toast) {
      load();
      return () => {
        gone = true;
      };
    }
    const cancel = whenIdle(load);
    return () => {
      gone = true;
      cancel();
    };
  }, [Live, toast]);
  if (!Live) return <StaticToast toast={toast} />;
  return <Live.Component toast={toast} />;
}
