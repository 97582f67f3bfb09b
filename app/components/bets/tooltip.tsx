// A small tooltip with the product's timing (docs/product-rules.md#amounts-and-limits): it opens after 700 ms of hover or
// focus, and at once if another tooltip closed less than 300 ms ago. Radix
// Tooltip brings a positioning engine that would push the create page past
// its JavaScript budget (measured in docs/decisions/0103-fee-tooltip-without-radix.md); one fixed
// placement is enough here.
import { useEffect, useId, useRef, useState } from "react";

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
let lastClosedAt = 0;

export function Tooltip({
  label,
  content,
  children,
}: {
  label: string;
  content: React.ReactNode;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const id = useId();
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const show = () => {
    if (timer.current) clearTimeout(timer.current);
    const skip = Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS;
    timer.current = setTimeout(
      () => setOpen(true),
      skip ? 0 : TOOLTIP_DELAY_MS,
    );
  };
  const hide = () => {
    if (timer.current) clearTimeout(timer.current);
    setOpen((was) => {
      if (was) lastClosedAt = Date.now();
      return false;
    });
  };
  return (
    <span className="relative inline-flex">
      <button
        type="button"
        className="inline-flex size-11 items-center justify-center rounded-full text-slate-500"
        aria-label={label}
        aria-describedby={open ? id : undefined}
        onPointerEnter={show}
        onPointerLeave={hide}
        onFocus={show}
        onBlur={hide}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => e.key === "Escape" && hide()}
      >
        {children}
      </button>
      {open ? (
        <span
          id={id}
          role="tooltip"
          className="absolute bottom-full left-1/2 z-50 w-56 -translate-x-1/2 rounded-md bg-slate-900 px-3 py-2 text-xs font-normal text-white shadow-lg"
        >
          {content}
        </span>
      ) : null}
    </span>
  );
}
