// The toast once JavaScript runs: Radix Toast, so it can be swiped away,
// reached with F8 and announced, and goes after TOAST_DURATION_MS. Its own
// chunk, loaded by Toaster (./toaster.tsx) when a toast is to be shown or
// the browser is idle (docs/decisions/archive/1055-main-thread-at-the-floor.md).
import { useEffect, useState } from "react";
import { Toast } from "radix-ui";
import { TOAST_DURATION_MS, tone, type ToastMessage } from "./toast-look";

export function LiveToaster({ toast }: { toast: ToastMessage | null }) {
  const [current, setCurrent] = useState(toast);
  const [open, setOpen] = useState(Boolean(toast));
  useEffect(() => {
    if (toast) {
      setCurrent(toast);
      setOpen(true);
    }
  }, [toast]);

  return (
    <Toast.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={50}
    >
      {current ? (
        <Toast.Root
          key={current.id}
          open={open}
          onOpenChange={setOpen}
          className={`relative w-full rounded-lg border-l-4 bg-white p-3 pr-8 shadow-lg ${tone[current.type]}`}
          type={current.type === "error" ? "foreground" : "background"}
        >
          <Toast.Title className="text-sm font-semibold">
            {current.title}
          </Toast.Title>
          {current.description ? (
            <Toast.Description className="text-sm text-slate-700">
              {current.description}
            </Toast.Description>
          ) : null}
          <Toast.Close
            aria-label="Dismiss"
            className="absolute right-2 top-2 text-slate-500"
          >
            ×
          </Toast.Close>
        </Toast.Root>
      ) : null}
      <Toast.Viewport
        hotkey={["F8"]}
        className="fixed inset-x-0 bottom-20 z-40 mx-auto flex w-full max-w-sm flex-col gap-2 px-3"
      />
    </Toast.Provider>
  );
}
