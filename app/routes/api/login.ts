import type { Route } from "./+types/login";
import { toUserJson } from "~/models/user.server";
import { api, readJson } from "~/utils/api.server";
import { authenticateCredentials } from "~/utils/auth.server";
import { startSession } from "~/utils/session.server";

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    const user = await authenticateCredentials(await readJson(request));
    return Response.json(toUserJson(user), {
      headers: { "Set-Cookie": await startSession(request, user.id) },
    });
  });
}
