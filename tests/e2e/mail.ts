// The mail the e2e server's SMTP server received (tests/e2e/serve.mjs).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";

export type Mail = { to: string; subject: string; text: string };

const mailFile = path.join(
  os.tmpdir(),
  `fairshake-e2e-mail-${process.env.E2E_PORT ?? 3210}.jsonl`,
);

export function mailsTo(to: string, subject?: string): Mail[] {
  return fs
    .readFileSync(mailFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Mail)
    .filter((m) => m.to === to && (!subject || m.subject === subject));
}

/** Waits for a mail to arrive and answers the path (with query) of its first link to `prefix`. */
export async function linkInMail(
  to: string,
  subject: string,
  prefix: string,
): Promise<string> {
  await expect
    .poll(() => mailsTo(to, subject).length, { timeout: 15_000 })
    .toBeGreaterThan(0);
  const mail = mailsTo(to, subject)[0]!;
  const url = (mail.text.match(/https?:\/\/[^\s]+/g) ?? [])
    .map((u) => new URL(u))
    .find((u) => u.pathname.startsWith(prefix));
  expect(url, mail.text).toBeTruthy();
  return url!.pathname + url!.search;
}
