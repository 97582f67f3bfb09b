// GET /api/users/{id}: public fields only (docs/api.md).
import type { Route } from "./+types/users-id";
import { getPublicUser } from "~/models/accounts/user.server";
import { getPaymentRecord } from "~/models/payments/dues.server";
import { api } from "~/framework/api.server";
import { parseId } from "~/utils/validation";
import { requireApiUser } from "~/models/accounts/session.server";
import { notFound } from "~/utils/errors";

export function loader({ request, context, params }: Route.LoaderArgs) {
  return api(async () => {
    await requireApiUser({ request, context });
    const id = parseId(params.id);
    const user = id === null ? null : await getPublicUser(id);
    if (!user) throw notFound("User not found");
    return Response.json({
      ...user,
      paymentRecord: await getPaymentRecord(user.id),
    });
  });
}
