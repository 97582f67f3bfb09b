// The bench's yardstick: the bare React Router app of scripts/bench/bare-app
// (docs/performance.md), built into a folder of its own with a given
// checkout's packages and Node, so that it can be measured beside Fairshake
// or beside itself on another platform.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Builds the bare app into `into` (created or replaced) from `checkout`'s
 * source and node_modules, with `node`. Throws when the build fails.
 */
export function buildBareApp({
  into,
  checkout = process.cwd(),
  node = process.execPath,
}) {
  const packages = path.resolve(checkout, "node_modules");
  fs.rmSync(into, { recursive: true, force: true });
  fs.cpSync(path.resolve(checkout, "scripts/bench/bare-app"), into, {
    recursive: true,
  });
  fs.symlinkSync(packages, path.join(into, "node_modules"));
  fs.writeFileSync(
    path.join(into, "package.json"),
    JSON.stringify({ name: "bare-app", private: true, type: "module" }),
  );
  // The CLI as the package names it (bin.js up to 7, bin.cjs since 8).
  const devPackage = path.join(packages, "@react-router/dev");
  const { bin } = JSON.parse(
    fs.readFileSync(path.join(devPackage, "package.json"), "utf8"),
  );
  const cli = typeof bin === "string" ? bin : bin["react-router"];
  const r = spawnSync(node, [path.join(devPackage, cli), "build"], {
    cwd: into,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error(`the bare app in ${into} did not build`);
}
