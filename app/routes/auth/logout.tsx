import { redirect, href } from "react-router";
import type { Route } from "./+types/logout";
import { endSession } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import type { RouteTraits } from "~/domain/route-traits";

// Ends the session: outside the key rule, and the service worker forgets
// the kept pages as it is sent, even offline.
export const handle: RouteTraits = { session: "ends", offline: false };

// Logging out is a POST (a form in the header); a GET only sends you home.
export async function loader() {
  throw redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  return redirectWithToast(
    href("/auth"),
    {
      title: "Logged out",
      description: "You have been logged out successfully.",
    },
    { headers: { "Set-Cookie": await endSession(request) } },
  );
}
