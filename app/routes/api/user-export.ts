// GET /api/user/export: everything of yours as a JSON download (docs/product-rules.md#your-data).
// The "Your data" page links here: a plain GET, so it works without JavaScript.
import type { Route } from "./+types/user-export";
import {
  exportAccountData,
  exportFileName,
} from "~/models/cross-domain/account-export.server";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const data = await exportAccountData(user.id);
    return new Response(JSON.stringify(data, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName(user)}"`,
        "Cache-Control": "private, no-store",
      },
    });
  });
}
