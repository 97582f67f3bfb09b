// The production build on a fresh database for the browser tests: demo mode
// (demo payments and the demo seed), rate limits off for many sign-ups, and
// a real SMTP server beside it that writes every mail it receives, parsed,
// to a file the specs read (tests/e2e/mail.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const port = process.env.E2E_PORT ?? "3210";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-e2e-"));
const mailFile = path.join(os.tmpdir(), `fairshake-e2e-mail-${port}.jsonl`);
fs.writeFileSync(mailFile, "");

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        for (const rcpt of session.envelope.rcptTo)
          fs.appendFileSync(
            mailFile,
            `${JSON.stringify({ to: rcpt.address, subject: mail.subject, text: mail.text })}\n`,
          );
        callback();
      })
      .catch(callback);
  },
});
await new Promise((resolve) => smtp.listen(0, "127.0.0.1", resolve));

const child = spawn(process.execPath, ["build/app-server.js"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    DEMO_MODE: "1",
    RATE_LIMITS: "off",
    SESSION_SECRET: "e2e-secret",
    PORT: port,
    DATABASE_PATH: path.join(dir, "e2e.db"),
    SMTP_URL: `smtp://127.0.0.1:${smtp.server.address().port}`,
    PUBLIC_ORIGIN: `http://localhost:${port}`,
    OUTBOX_POLL_MS: "250",
  },
});
const stop = () => {
  child.kill("SIGTERM");
  smtp.close();
  fs.rmSync(dir, { recursive: true, force: true });
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", (code) => process.exit(code ?? 0));
