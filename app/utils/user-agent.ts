// A readable name for a device from its User-Agent, for the security page
// (docs/product-rules.md#accounts, docs/decisions/0900-password-reset-and-sessions.md): "Chrome on Android", "Safari on iPhone". A
// small table, not a library: the page needs the browser family and the
// system, never versions, and an unknown string reads as "Unknown device".

const BROWSERS: [RegExp, string][] = [
  // Order matters: each of these also claims to be Chrome and/or Safari.
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bCriOS\//, "Chrome"],
  [/\b(Headless)?Chrom(e|ium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bcurl\//, "curl"],
  [/\bnode\b|\bundici\b/i, "Node.js"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** The words around the names, in a page's language (English by default). */
export type DeviceWords = {
  on: (browser: string, system: string) => string;
  browserOn: (system: string) => string;
  unknown: string;
};

const ENGLISH: DeviceWords = {
  on: (browser, system) => `${browser} on ${system}`,
  browserOn: (system) => `Browser on ${system}`,
  unknown: "Unknown device",
};

export function describeUserAgent(
  userAgent: string | null | undefined,
  words: DeviceWords = ENGLISH,
) {
  if (!userAgent) return words.unknown;
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return words.on(browser, system);
  if (browser) return browser;
  if (system) return words.browserOn(system);
  return words.unknown;
}
