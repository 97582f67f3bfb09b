// The browser tests use Debian's Chromium (Playwright never downloads one
// here). Install it with apt when it is missing.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "./lib/chromium.mjs";

if (!existsSync(CHROMIUM_PATH)) {
  console.info("Installing Debian's chromium for the browser tests…");
  const sudo = process.getuid?.() === 0 ? "" : "sudo ";
  execSync(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`,
    {
      stdio: "inherit",
    },
  );
}
