// Mail in the product's look, as plain templates (docs/decisions/0600-database-scheduler.md):
// an HTML part with inline styles (mail clients ignore stylesheets) and a
// plain-text part with the same words and links. Every text is escaped.
import type { Mail } from "./mail.server";
import { escapeHtml } from "~/utils/html";
import type { Language } from "~/domain/language";
import { messagesIn } from "./activity-text.server";

export type MailContent = {
  to: string;
  /** The recipient's language: every word given is in it already. */
  language: Language;
  subject: string;
  /** The lines of the message, each a paragraph. */
  paragraphs: string[];
  action: { label: string; url: string };
  /** Small print under the message: why this mail came, how to stop it. */
  footer: string;
  unsubscribeUrl?: string;
};

export function renderMail(content: MailContent): Mail {
  const { subject, paragraphs, action, footer, unsubscribeUrl, language } =
    content;
  const unsubscribe = messagesIn(language)("email.unsubscribe");
  const text = [
    ...paragraphs,
    `${action.label}: ${action.url}`,
    "",
    "—",
    footer,
    ...(unsubscribeUrl ? [`${unsubscribe}: ${unsubscribeUrl}`] : []),
  ].join("\n\n");
  const html = `<!doctype html><html lang="${escapeHtml(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#ecfdf5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#111827">
<div style="max-width:480px;margin:0 auto;padding:24px 16px">
<p style="margin:0 0 16px;font-weight:700;font-size:20px;color:#065f46">Fairshake</p>
<div style="background:#ffffff;border-radius:12px;padding:24px">
<h1 style="margin:0 0 12px;font-size:18px">${escapeHtml(subject)}</h1>
${paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
<p style="margin:20px 0 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#047857;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${escapeHtml(action.label)}</a></p>
</div>
<p style="margin:16px 0 0;font-size:12px;color:#4b5563;line-height:1.5">${escapeHtml(footer)}${
    unsubscribeUrl
      ? ` <a href="${escapeHtml(unsubscribeUrl)}" style="color:#4b5563">${escapeHtml(unsubscribe)}</a>`
      : ""
  }</p>
</div></body></html>`;
  return {
    to: content.to,
    subject,
    text,
    html,
    headers: unsubscribeUrl
      ? {
          // RFC 8058 one-click: the provider POSTs List-Unsubscribe=One-Click.
          "List-Unsubscribe": `<${unsubscribeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
      : undefined,
  };
}
