// POST /api/verify-email/resend → 202 (a link is on its way unless already verified); 429 when asked too often.
import type { Route } from "./+types/verify-email-resend";
import { resendVerificationEmail } from "~/models/accounts/email-verification.server";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    await resendVerificationEmail(await requireApiUser({ request, context }));
    return new Response(null, { status: 202 });
  });
}
