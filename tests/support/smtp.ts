// A real SMTP server for tests (smtp-server), with every mail parsed by
// mailparser, the way a mail provider would receive it. It can refuse mail
// (a 451 to every sender) or hang (never answer), to prove that the app's
// requests never wait on mail and that the outbox retries.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: ParsedMail["headers"];
  /** A header as it was sent (mailparser restructures some, List-* among them). */
  raw: (name: string) => string | undefined;
};

export type TestSmtp = {
  url: string;
  port: number;
  mails: ReceivedMail[];
  mode: "accept" | "refuse" | "hang";
  /** Resolves with the first mail matching, polling what has arrived. */
  waitFor: (
    match: (m: ReceivedMail) => boolean,
    timeoutMs?: number,
  ) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
};

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const state: TestSmtp = {
    url: "",
    port: 0,
    mails: [],
    mode: "accept",
    waitFor: async (match, timeoutMs = 20_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const hit = state.mails.find(match);
        if (hit) return hit;
        if (Date.now() > until)
          throw new Error(
            `no matching mail in ${timeoutMs} ms; got: ${state.mails.map((m) => `${m.to}: ${m.subject}`).join(" | ")}`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (state.mode === "hang") return; // never answers
      if (state.mode === "refuse") {
        const error = new Error("Try again later") as Error & {
          responseCode: number;
        };
        error.responseCode = 451;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          for (const rcpt of session.envelope.rcptTo)
            state.mails.push({
              to: rcpt.address,
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: typeof parsed.html === "string" ? parsed.html : "",
              headers: parsed.headers,
              raw: (name) =>
                parsed.headerLines
                  .find((h) => h.key === name.toLowerCase())
                  ?.line.replace(/^[^:]+:\s*/, ""),
            });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) =>
    server.listen(port, "127.0.0.1", resolve),
  );
  state.port = (server.server.address() as AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}

/** The first link in a mail's text to `path` (any origin), as a path with its query. */
export function linkIn(mail: ReceivedMail, pathPrefix: string): string {
  const match = mail.text
    .match(/https?:\/\/[^\s]+/g)
    ?.map((u) => new URL(u))
    .find((u) => u.pathname.startsWith(pathPrefix));
  if (!match) throw new Error(`no link to ${pathPrefix} in:\n${mail.text}`);
  return match.pathname + match.search;
}
