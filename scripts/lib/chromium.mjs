// Debian's Chromium as the bench scripts drive it: the one binary the
// machine has (nothing is downloaded), and the flags that keep a headless
// run quiet (no GPU, no QUIC, no background fetches or updates) so its
// timings are the page's own.
import * as chromeLauncher from "chrome-launcher";
import puppeteer from "puppeteer-core";

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
