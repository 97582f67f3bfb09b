// The pipeline's language step for pages: the words the server writes into
// a page's answer (a refusal, a toast) follow the page's language, decided
// as the root decides it (the `lang` cookie, the person's saved language,
// Accept-Language). It asks for nobody: the saved language is known once
// the request's own user lookup has answered (an action or loader that
// needs the person has asked by then); before that, the cookie and the
// browser decide. The /api answers in English (docs/api.md).
import type { MiddlewareFunction } from "react-router";
import { apiPath } from "~/route-paths";
import { pageLanguage } from "~/framework/language.server";
import { inPageLanguage } from "~/framework/page-words.server";
import { onUserKnown } from "~/models/requests/request-user.server";

/** Names a page answer's language for the service worker (public/sw.js spells it too). */
export const LANGUAGE_HEADER = "X-Fairshake-Language";

export const pageLanguageMiddleware: MiddlewareFunction<Response> = async (
  { request, url, context },
  next,
) => {
  const api = apiPath("");
  if (url.pathname.startsWith(api) || url.pathname === api.slice(0, -1))
    return next();
  let saved: string | null | undefined;
  onUserKnown(context, (user) => {
    saved = user?.language ?? null;
  });
  const response = await inPageLanguage(
    () => pageLanguage(request, saved),
    next,
  );
  // The language chosen for this person, said on every page answer: the
  // service worker shows its offline page in it (public/sw.js). Never on
  // an answer a shared cache may keep for others (an avatar).
  if (/\bpublic\b/.test(response.headers.get("Cache-Control") ?? ""))
    return response;
  try {
    response.headers.set(LANGUAGE_HEADER, pageLanguage(request, saved));
  } catch {
    // An answer with immutable headers keeps them.
  }
  return response;
};
