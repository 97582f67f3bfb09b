// The language picker's target (docs/product-rules.md#languages): a plain
// form in the footer and the profile posts here, with or without
// JavaScript. It sets the `lang` cookie, saves the language for a
// signed-in person (their emails and pushes follow it) and goes back to
// the page it came from.
import { data, redirect } from "react-router";
import type { Route } from "./+types/language";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { isLanguage, UNKNOWN_LANGUAGE } from "~/domain/language";
import type { RouteTraits } from "~/domain/route-traits";
import { readFormData } from "~/framework/form-data.server";
import { languageCookieHeader } from "~/framework/language.server";
import { getUser } from "~/models/accounts/session.server";
import { updateProfile } from "~/models/accounts/profile.server";
import { safeRedirect } from "~/utils/safe-redirect";

// A pick made offline only says 'Not sent': the page would stay in the old language.
export const handle: RouteTraits = { offline: false };

// The picker is a POST; a GET only goes home.
export function loader() {
  throw redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const language = form.get("language");
  if (!isLanguage(language)) throw data(UNKNOWN_LANGUAGE, { status: 400 });
  const user = await getUser({ request, context });
  if (user) await updateProfile({ userId: user.id, input: { language } });
  return redirect(safeRedirect(form.get("returnTo")), {
    headers: { "Set-Cookie": languageCookieHeader(language) },
  });
}

// A send the network lost says so (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);
