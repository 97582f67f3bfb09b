// Mail out (docs/product-rules.md#notifications): nodemailer over SMTP_URL (`smtp://` or `smtps://`,
// credentials in the URL). Without SMTP_URL there is no transport; the
// outbox then keeps demo mail for /demo/outbox or logs and drops it.
import type { Transporter } from "nodemailer";
import { mailFrom, smtpUrl } from "~/utils/env-settings.server";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
};

let transporter: Promise<Transporter> | undefined;

// nodemailer loads with the first mail sent, not with the server.
function smtp(url: string): Promise<Transporter> {
  // A server that hangs must not hold a delivery for long: the outbox
  // retries later with a growing delay.
  const timeouts =
    "connectionTimeout=10000&greetingTimeout=10000&socketTimeout=20000";
  transporter ??= import("nodemailer").then(({ default: nodemailer }) =>
    nodemailer.createTransport(
      url.includes("?") ? `${url}&${timeouts}` : `${url}?${timeouts}`,
    ),
  );
  return transporter;
}

export const hasSmtp = () => smtpUrl() !== undefined;

/** Sends over SMTP. Throws on refusal (the outbox records it and retries). */
export async function sendMail(mail: Mail): Promise<void> {
  const url = smtpUrl();
  if (!url) throw new Error("SMTP_URL is not set");
  await (await smtp(url)).sendMail({ from: mailFrom(), ...mail });
}
