// Where mailed links point, and the start-up refusal when nothing says.
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function load(env: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  return import("./env.server");
}

describe("the public origin", () => {
  it("is PUBLIC_ORIGIN first, without a trailing slash", async () => {
    const env = await load({
      PUBLIC_ORIGIN: "https://bets.example/",
      FLY_APP_NAME: "fairshake",
    });
    expect(env.publicOrigin()).toBe("https://bets.example");
  });

  it("is the Fly app's own name on Fly", async () => {
    const env = await load({ PUBLIC_ORIGIN: "", FLY_APP_NAME: "fairshake" });
    expect(env.publicOrigin()).toBe("https://fairshake.fly.dev");
  });

  it("is never the Host header when one is configured", async () => {
    const env = await load({ PUBLIC_ORIGIN: "https://bets.example" });
    const poisoned = new Request("https://evil.example/forgot-password");
    expect(env.publicOrigin(poisoned)).toBe("https://bets.example");
  });

  it("refuses to start in production with SMTP but no origin (outside demo mode)", async () => {
    const env = await load({
      NODE_ENV: "production",
      DEMO_MODE: "",
      SMTP_URL: "smtp://mail.example:25",
      PUBLIC_ORIGIN: "",
      FLY_APP_NAME: "",
      SESSION_SECRET: "s",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
    });
    expect(() => env.assertEnvironment()).toThrow(/PUBLIC_ORIGIN is required/);
  });
});
