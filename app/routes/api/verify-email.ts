// POST /api/verify-email {token} → 200 user; 400 'This link is invalid or has expired.'
import type { Route } from "./+types/verify-email";
import { verifyEmailToken } from "~/models/accounts/email-verification.server";
import { toUserJson } from "~/models/accounts/user.server";
import { api, readJson } from "~/framework/api.server";

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    const { token } = await readJson(request);
    return Response.json(toUserJson(await verifyEmailToken(token)));
  });
}
