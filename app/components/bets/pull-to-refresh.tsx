// Pull-to-refresh on the dashboard (docs/product-rules.md#screens): an enhancement when
// JavaScript runs. A pull of more than 50 px from the top revalidates.
import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";

export const PULL_THRESHOLD_PX = 50;
export const REFRESH_INDICATOR_MS = 800;

export function PullToRefresh() {
  const revalidator = useRevalidator();
  const [state, setState] = useState<"idle" | "pulling" | "refreshing">("idle");
  const start = useRef<number | null>(null);
  const pulled = useRef(0);
  useEffect(() => {
    const onStart = (e: TouchEvent) => {
      start.current =
        window.scrollY <= 0 ? (e.touches[0]?.clientY ?? null) : null;
      pulled.current = 0;
    };
    const onMove = (e: TouchEvent) => {
      if (start.current === null) return;
      pulled.current = (e.touches[0]?.clientY ?? 0) - start.current;
      setState((s) =>
        s === "refreshing"
          ? s
          : pulled.current > PULL_THRESHOLD_PX
            ? "pulling"
            : "idle",
      );
    };
    const onEnd = () => {
      if (start.current !== null && pulled.current > PULL_THRESHOLD_PX) {
        setState("refreshing");
        void revalidator.revalidate();
        setTimeout(() => setState("idle"), REFRESH_INDICATOR_MS);
      }
      start.current = null;
      pulled.current = 0;
    };
    window.addEventListener("touchstart", onStart, { passive: true });
    window.addEventListener("touchmove", onMove, { passive: true });
    window.addEventListener("touchend", onEnd);
    return () => {
      window.removeEventListener("touchstart", onStart);
      window.removeEventListener("touchmove", onMove);
      window.removeEventListener("touchend", onEnd);
    };
  }, [revalidator]);
  if (state === "idle") return null;
  return (
    <p role="status" className="text-center text-sm text-slate-600">
      {state === "pulling" ? "Pull down to refresh" : "Refreshing..."}
    </p>
  );
}
