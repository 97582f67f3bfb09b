// The finance range presets (docs/product-rules.md#screens), kept apart from the date arithmetic
// so the page's bundle carries only these labels.
export const PRESETS = [
  { id: "week", label: "finances.week" },
  { id: "month", label: "finances.month" },
  { id: "quarter", label: "finances.quarter" },
  { id: "year", label: "finances.year" },
  { id: "all", label: "finances.all" },
] as const;
export type Preset = (typeof PRESETS)[number]["id"];
export const DEFAULT_PRESET: Preset = "month";

/** A finance view's range: whole days in the user's time zone (app/models/payments/finance-range.server.ts). */
export type DateRange = {
  start: string;
  end: string;
  preset: Preset | null;
  /** [fromMs, toMs): midnight of start to midnight after end, in the zone. */
  fromMs: number;
  toMs: number;
};
