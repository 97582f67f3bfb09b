import type { Route } from "./+types/user";
import { toUserJson } from "~/models/user.server";
import { api } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";

export function loader({ request }: Route.LoaderArgs) {
  return api(async () =>
    Response.json(toUserJson(await requireApiUser(request))),
  );
}
