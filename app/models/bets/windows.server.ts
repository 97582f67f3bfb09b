// The durations of docs/product-rules.md#answer-windows, #getting-paid, each a named setting the environment
// can shorten (tests run whole windows in seconds). Read on every use, so a
// test may change them between cases.
import { setting } from "~/utils/env.server";

/** docs/product-rules.md#answer-windows: the other side answers a proposal within this (72 h). */
export const responseWindowMs = () => setting("RESPONSE_WINDOW_S") * 1000;
/** docs/product-rules.md#getting-paid: the loser pays within this of the settlement (72 h). */
export const paymentDueMs = () => setting("PAYMENT_DUE_S") * 1000;
/** docs/product-rules.md#getting-paid: the winner nudges at most once per this (24 h). */
export const nudgeIntervalMs = () => setting("NUDGE_INTERVAL_S") * 1000;
/** How often the sweep runs (60 s; tests use 1). */
export const sweepIntervalMs = () => setting("SWEEP_INTERVAL_S") * 1000;
