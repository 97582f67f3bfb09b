// /share/{id}: 200 for everyone with Open Graph and Twitter tags; a signed-in
// person goes on to the bet; a visitor is sent to log in after 300 ms by a
// meta refresh (docs/product-rules.md#private-bets). No JavaScript on this page.
import { data, Link, redirect, href } from "react-router";
import { pageWords } from "~/framework/page-words.server";
import type { Route } from "./+types/share";
import { Logo } from "~/components/logo";
import { BET_NOT_FOUND } from "~/domain/bet";
import { openBetByCode } from "~/models/bets/bet-access.server";
import {
  getSharePreview,
  shareMeta,
  type SharePreview,
} from "~/models/bets/share.server";
import { parseId } from "~/utils/validation";
import { isDomainError, unwrapDomainError } from "~/utils/errors";
import { pageError } from "~/framework/page.server";
import { formatMoney } from "~/domain/currency";
import { getUser } from "~/models/accounts/session.server";
import {
  copyFromData,
  GeneralErrorBoundary,
} from "~/components/error-boundary";
import { clientAddressContext } from "~/framework/request-context.server";
import type { RouteTraits } from "~/domain/route-traits";
import { matchAcceptLanguage } from "~/domain/language";
import { readLanguageCookie } from "~/framework/language.server";
import { pageMessages } from "~/framework/catalogs.server";
import { routeMessageAreas } from "~/framework/route-pattern";
import { messagesIn } from "~/messaging/activity-text.server";
import { useLanguage, useT } from "~/components/i18n";

// A share link opens its bet for a signed-in follower: a read that writes.
export const handle: RouteTraits = {
  messages: ["sharePage"],
  hydrate: false,
  writesOnGet: true,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = parseId(params.id);
  if (id === null)
    throw data(
      {
        title: pageWords("Invalid bet ID"),
        message: pageWords("This share link is not valid."),
      },
      { status: 400 },
    );
  const code = url.searchParams.get("code");
  const user = await getUser({ request, context });
  let preview: SharePreview | null;
  try {
    preview = await getSharePreview(id, code, {
      userId: user?.id ?? null,
      clientAddress: context.get(clientAddressContext),
    });
  } catch (error) {
    // A refusal, or the database out of reach (503 with Retry-After, as
    // every page answers it), is the page door's to word.
    if (isDomainError(unwrapDomainError(error)))
      throw pageError(error, {
        429: (failure) => ({
          title: pageWords("Too many tries"),
          message: failure.message,
        }),
      });
    console.error(error);
    throw data(
      {
        title: pageWords(LOAD_FAILED.title),
        message: pageWords(LOAD_FAILED.message),
      },
      { status: 500 },
    );
  }
  if (!preview)
    throw data(
      {
        title: pageWords("Bet not found"),
        message: pageWords(BET_NOT_FOUND),
      },
      { status: 404 },
    );
  if (user) {
    // The link's code opens a private bet for whoever follows it (docs/product-rules.md#private-bets).
    if (preview.visibility === "private")
      await openBetByCode({
        code: preview.code,
        userId: user.id,
        clientAddress: context.get(clientAddressContext),
      });
    throw redirect(href("/bet/:id", { id: String(preview.id) }));
  }
  const meta = shareMeta(preview, request);
  // The page is in the language the visitor's browser names (the picker's
  // cookie, else Accept-Language); a link-preview crawler names none and
  // gets the bet's. The preview tags and the card are always in the bet's
  // language: a chat shows the one preview to everyone in it
  // (docs/product-rules.md#languages).
  const language =
    readLanguageCookie(request) ??
    matchAcceptLanguage(request.headers.get("Accept-Language")) ??
    preview.language;
  const previewWords = messagesIn(preview.language)("sharePage.preview", {
    amount: formatMoney(
      preview.amountCents,
      preview.currency,
      preview.language,
    ),
    description: meta.description,
  });
  return {
    // The root's language is replaced by this page's (app/root.tsx).
    ownLanguage: {
      language,
      messages: pageMessages(
        language,
        routeMessageAreas(url.pathname) ?? ["language", "sharePage"],
      ),
    },
    previewWords,
    preview: {
      title: preview.title,
      description: preview.description,
      amountCents: preview.amountCents,
      currency: preview.currency,
      code: preview.code,
    },
    meta,
    loginUrl: `${href("/auth")}?return_to=${encodeURIComponent(url.pathname + url.search)}`,
  };
}

export default function SharePage({ loaderData }: Route.ComponentProps) {
  const { preview, meta, loginUrl } = loaderData;
  const t = useT();
  const language = useLanguage();
  return (
    <div className="mx-auto min-h-dvh max-w-lg px-4 py-6">
      <header className="mb-6">
        <Logo />
      </header>
      <main className="space-y-4">
        <article className="card space-y-3">
          <img
            src={meta.image}
            alt=""
            width={1200}
            height={630}
            className="h-auto w-full rounded-lg"
          />
          <h1 className="break-words text-xl font-bold">{preview.title}</h1>
          <p className="whitespace-pre-wrap break-words text-slate-700">
            {preview.description}
          </p>
          <p className="text-2xl font-bold">
            {formatMoney(preview.amountCents, preview.currency, language)}
          </p>
          <p className="text-sm text-slate-600">
            {t("sharePage.code")}{" "}
            <span className="font-mono font-bold tracking-widest">
              {preview.code}
            </span>
          </p>
        </article>
        <p className="text-slate-700">{t("sharePage.logIn")}</p>
        <Link to={loginUrl} className="btn-primary w-full">
          {t("sharePage.continue")}
        </Link>
      </main>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData, error }) => {
  if (!loaderData || error) return [{ title: "Fairshake" }];
  const { meta: m, loginUrl, previewWords: description } = loaderData;
  return [
    { title: `${m.title} · Fairshake` },
    { name: "description", content: description },
    { httpEquiv: "refresh", content: `0.3;url=${loginUrl}` },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: "Fairshake" },
    { property: "og:title", content: m.title },
    { property: "og:description", content: description },
    { property: "og:url", content: m.url },
    { property: "og:image", content: m.image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: m.title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: m.image },
  ];
};

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <GeneralErrorBoundary
      error={error}
      statusHandlers={{}}
      defaultStatusHandler={copyFromData(LOAD_FAILED)}
      unexpected={LOAD_FAILED}
    />
  );
}

const LOAD_FAILED = {
  title: "Failed to load bet information",
  message: "Please try again in a moment.",
};
