// The finance range presets (docs/product-rules.md#screens), kept apart from the date arithmetic
// so the page's bundle carries only these labels.
export const PRESETS = [
  { id: "week", label: "This Week" },
  { id: "month", label: "This Month" },
  { id: "quarter", label: "This Quarter" },
  { id: "year", label: "This Year" },
  { id: "all", label: "All Time" },
] as const;
export type Preset = (typeof PRESETS)[number]["id"];
export const DEFAULT_PRESET: Preset = "month";
