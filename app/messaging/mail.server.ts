// Mail out (docs/product-rules.md#notifications): nodemailer over SMTP_URL (`smtp://` or `smtps://`,
// credentials in the URL). Without SMTP_URL there is no transport; the
// outbox then keeps demo mail for /demo/outbox or logs and drops it.
import nodemailer, { type Transporter } from "nodemailer";
import { mailFrom, smtpUrl } from "~/utils/env.server";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
};

let transporter: Transporter | null | undefined;

function smtp(): Transporter | null {
  if (transporter !== undefined) return transporter;
  const url = smtpUrl();
  // A server that hangs must not hold a delivery for long: the outbox
  // retries later with a growing delay.
  const timeouts =
    "connectionTimeout=10000&greetingTimeout=10000&socketTimeout=20000";
  transporter = url
    ? nodemailer.createTransport(
        url.includes("?") ? `${url}&${timeouts}` : `${url}?${timeouts}`,
      )
    : null;
  return transporter;
}

export const hasSmtp = () => smtp() !== null;

/** Sends over SMTP. Throws on refusal (the outbox records it and retries). */
export async function sendMail(mail: Mail): Promise<void> {
  const transport = smtp();
  if (!transport) throw new Error("SMTP_URL is not set");
  await transport.sendMail({ from: mailFrom(), ...mail });
}
