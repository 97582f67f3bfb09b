import type { Route } from "./+types/register";
import { registerUser, toUserJson } from "~/models/user.server";
import { api, readJson } from "~/utils/api.server";
import { startSession } from "~/utils/session.server";

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    const user = await registerUser(await readJson(request));
    return Response.json(toUserJson(user), {
      status: 201,
      headers: { "Set-Cookie": await startSession(request, user.id) },
    });
  });
}
