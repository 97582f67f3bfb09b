// GET/POST /api/unsubscribe?token=… (docs/product-rules.md#notifications, RFC 8058). The mail's link
// opens a small page with a button (a GET changes nothing: mail scanners
// follow links); the provider's one-click POST, or that button, switches the
// kind off. The signed token is its only authority: no session, no JSON,
// no Origin (server/serve.ts lets this one path through its JSON and cross-site doors).
import type { Route } from "./+types/unsubscribe";
import { KIND_LABELS } from "~/models/notifications/notification-kinds";
import {
  BAD_UNSUBSCRIBE_TOKEN,
  unsubscribeByToken,
  verifyUnsubscribeToken,
} from "~/models/notifications/notification-preferences.server";
import { isDomainError } from "~/utils/errors";
import { escapeHtml } from "~/utils/html";

function page(status: number, title: string, body: string) {
  return new Response(
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} — Fairshake</title><main style="font-family:system-ui;max-width:28rem;margin:0 auto;padding:2rem 1rem"><h1>${escapeHtml(title)}</h1>${body}<p><a href="/profile/notifications">All notification settings</a></p></main></html>`,
    { status, headers: { "Content-Type": "text/html; charset=utf-8" } },
  );
}

const tokenOf = (request: Request) =>
  new URL(request.url).searchParams.get("token");

export function loader({ request }: Route.LoaderArgs) {
  const token = tokenOf(request);
  try {
    const { kind } = verifyUnsubscribeToken(token);
    return page(
      200,
      "Unsubscribe",
      `<p>Stop mail about “${escapeHtml(KIND_LABELS[kind])}”?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
    );
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return page(400, "Link not valid", `<p>${BAD_UNSUBSCRIBE_TOKEN}</p>`);
  }
}

export async function action({ request }: Route.ActionArgs) {
  try {
    const { kind } = await unsubscribeByToken(tokenOf(request));
    return page(
      200,
      "Unsubscribed",
      `<p>You will get no more mail about “${escapeHtml(KIND_LABELS[kind])}”.</p>`,
    );
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return page(400, "Link not valid", `<p>${BAD_UNSUBSCRIBE_TOKEN}</p>`);
  }
}
