// What a toast is and how it looks, shared by the server's toast
// (StaticToast, ./toaster.tsx) and the live one (./live-toaster.tsx): the
// live one's chunk takes them from here, not from the toaster that loads it.
export type ToastMessage = {
  id: string;
  title: string;
  description?: string;
  type: "success" | "error" | "info";
};

export const tone = {
  success: "border-brand-600",
  error: "border-red-600",
  info: "border-slate-400",
};

// docs/product-rules.md#amounts-and-limits: one toast at a time, 5000 ms, swipe right past 50 px, F8 focuses
// the region. the product's "removed 1,000,000 ms after dismissal" is the shadcn
// queue's bookkeeping; with one toast at a time there is no queue, and Radix
// unmounts a closed toast itself.
export const TOAST_DURATION_MS = 5000;
