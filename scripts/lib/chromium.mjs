// Debian's Chromium as the bench scripts and the browser tests drive it:
// the one binary the machine has (nothing is downloaded), and the flags
// that keep a headless run quiet (no GPU, no QUIC, no background fetches or
// updates) so its timings are the page's own.

export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * A headless Chromium on a debugging port (what Lighthouse drives) and
 * Puppeteer connected to it. `close` disconnects and ends the browser.
 */
export async function launchHeadlessChromium() {
  // Loaded here, not at the top: the browser tests' config reads the flags.
  const chromeLauncher = await import("chrome-launcher");
  const { default: puppeteer } = await import("puppeteer-core");
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  const browser = await puppeteer.connect({
    browserURL: `http://localhost:${chrome.port}`,
  });
  return {
    port: chrome.port,
    browser,
    kill: () => chrome.kill(),
    async close() {
      await browser.disconnect();
      await chrome.kill();
    },
  };
}

/** The phone every bench script loads pages on: 390 × 844 at twice the density. */
export const PHONE = { width: 390, height: 844, deviceScaleFactor: 2 };

/**
 * Lighthouse's mobile run as the bench measures every page: performance
 * only, a 390 × 844 phone at twice the density (Lighthouse then simulates
 * its 4× slower CPU and slow 4G).
 */
export function lighthouseMobileFlags(port) {
  return {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
    formFactor: "mobile",
    screenEmulation: { mobile: true, ...PHONE, disabled: false },
  };
}
