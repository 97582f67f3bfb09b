// The source files under a folder of app/ (React Router's generated +types
// folders left out), for the lint tests that read the code as it stands.
import fs from "node:fs";
import path from "node:path";

export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name.startsWith("+") ? [] : sourceFiles(file);
    return /\.(ts|tsx)$/.test(entry.name) ? [file] : [];
  });
}
