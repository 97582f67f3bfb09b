// The durations of docs/product-rules.md#answer-windows, #getting-paid, each a named setting the environment
// can shorten (tests run whole windows in seconds). Read on every use, so a
// test may change them between cases.
function seconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** docs/product-rules.md#answer-windows: the other side answers a proposal within this (72 h). */
export const responseWindowMs = () =>
  seconds("RESPONSE_WINDOW_S", 259_200) * 1000;
/** docs/product-rules.md#getting-paid: the loser pays within this of the settlement (72 h). */
export const paymentDueMs = () => seconds("PAYMENT_DUE_S", 259_200) * 1000;
/** docs/product-rules.md#getting-paid: the winner nudges at most once per this (24 h). */
export const nudgeIntervalMs = () => seconds("NUDGE_INTERVAL_S", 86_400) * 1000;
/** How often the sweep runs (60 s; tests use 1). */
export const sweepIntervalMs = () => seconds("SWEEP_INTERVAL_S", 60) * 1000;
