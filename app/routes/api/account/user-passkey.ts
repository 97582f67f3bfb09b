// PATCH /api/user/passkeys/{id} {name} → 200 {id, name, createdAt, lastUsedAt};
// DELETE /api/user/passkeys/{id} → 204; 404 when it is not one of yours
// (docs/api.md#passkeys).
import type { Route } from "./+types/user-passkey";
import {
  listPasskeys,
  passkeyJson,
  removePasskey,
  renamePasskey,
} from "~/models/accounts/passkeys.server";
import { requireApiUser } from "~/models/accounts/session.server";
import { api, methodNotAllowed, readJson } from "~/framework/api.server";

export function action({ request, context, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    if (request.method === "DELETE") {
      await readJson(request);
      await removePasskey(user.id, params.id);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PATCH") return methodNotAllowed();
    const body = (await readJson(request)) as { name?: unknown } | undefined;
    await renamePasskey(user.id, params.id, body?.name);
    const renamed = (await listPasskeys(user.id)).find(
      (p) => String(p.id) === params.id,
    );
    return Response.json(renamed ? passkeyJson(renamed) : null);
  });
}
