import { useEffect, useState } from "react";
import { Toast } from "radix-ui";
import { useHydrated } from "~/components/use-hydrated";

export type ToastMessage = {
  id: string;
  title: string;
  description?: string;
  type: "success" | "error" | "info";
};

const tone = {
  success: "border-brand-600",
  error: "border-red-600",
  info: "border-slate-400",
};

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

// docs/product-rules.md#amounts-and-limits: one toast at a time, 5000 ms, swipe right past 50 px, F8 focuses
// the region. the product's "removed 1,000,000 ms after dismissal" is the shadcn
// queue's bookkeeping; with one toast at a time there is no queue, and Radix
// unmounts a closed toast itself.
export const TOAST_DURATION_MS = 5000;

/**
 * Server HTML first; once hydrated, Radix Toast takes over the same message
 * so it can be swiped away and announced.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const hydrated = useHydrated();
  const [current, setCurrent] = useState(toast);
  const [open, setOpen] = useState(Boolean(toast));
  useEffect(() => {
    if (toast) {
      setCurrent(toast);
      setOpen(true);
    }
  }, [toast]);

  if (!hydrated) return <StaticToast toast={toast} />;
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
