import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./scripts/lib/chromium.mjs";

// Every journey runs twice: with JavaScript and without (docs/product-rules.md#forms-and-messages), at the
// phone size the product is designed for, on Debian's Chromium.
const PORT = Number(process.env.E2E_PORT ?? 3210);
// A second server whose answer and payment windows last seconds (docs/operations.md#environment),
// for the journeys that wait for the sweep (tests/e2e/fair.spec.ts).
const FAIR_PORT = Number(process.env.E2E_FAIR_PORT ?? PORT + 1);
const phone = {
  ...devices["Desktop Chrome"],
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  reporter: [["list"]],
  timeout: 45_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    // Journeys run without the offline service worker; tests/e2e/pwa.spec.ts allows it.
    serviceWorkers: "block",
  },
  projects: [
    { name: "js", use: { ...phone, javaScriptEnabled: true } },
    {
      name: "no-js",
      use: { ...phone, javaScriptEnabled: false },
      // A service worker needs JavaScript.
      testIgnore: /(pwa|offline-reading)\.spec\.ts/,
    },
  ],
  webServer: [
    {
      // The database is prepared by this command (webServer starts before globalSetup).
      command: `node tests/e2e/serve.mjs`,
      url: `http://localhost:${PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { E2E_PORT: String(PORT), E2E_FAIR_PORT: String(FAIR_PORT) },
    },
    {
      command: `node tests/e2e/serve.mjs`,
      url: `http://localhost:${FAIR_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        E2E_PORT: String(FAIR_PORT),
        RESPONSE_WINDOW_S: "12",
        PAYMENT_DUE_S: "8",
        SWEEP_INTERVAL_S: "1",
      },
    },
  ],
});
