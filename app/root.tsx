import {
  data,
  href,
  redirectDocument,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import favicon from "../public/favicon.svg?inline";
import { Toaster, StaticToast } from "~/components/toaster";
import { AppStylesheet } from "~/framework/inline-css";
import { BOOT_SCRIPT, MANIFEST_HREF } from "~/utils/boot-script";
import { useNonce } from "~/framework/nonce";
import { useKeepAssetsInServiceWorker } from "~/browser/service-worker";
import { getUser } from "~/models/accounts/session.server";
import { pipeline } from "~/pipeline/pipeline.server";
import { readToast } from "~/framework/toast.server";
import { newFormKeySeed } from "~/utils/form-key-seed.server";
import { stylesheetDelivery } from "~/framework/inline-css.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { I18nProvider, metaT } from "~/components/i18n";
import { SiteFooter } from "~/components/language-picker";
import { pageLanguage } from "~/framework/language.server";
import { pageMessagesFile } from "~/framework/catalogs.server";
import {
  keepMessages,
  loadMessages,
  messagesAt,
} from "~/framework/page-messages";
import { routeMessageAreas } from "~/framework/route-pattern";
import type { RouteTraits } from "~/domain/route-traits";
import type { Language } from "~/domain/language";
import type { Messages } from "@lingui/core";

// The icon is in the document (a small data: URL, its size in
// docs/decisions/archive/0842-icon-inline-manifest-after-first-paint.md): as a file it was a request the browser started at the
// load event, which on a small page comes before the first paint. The web app
// manifest is linked in Layout, after the first paint on pages with scripts.
export const links: Route.LinksFunction = () => [
  { rel: "icon", href: favicon, type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/icon-192.png" },
];

// The words of the layout every page shows (header, menu, footer, banner);
// each page adds its own areas in its `handle`.
export const handle = {
  // The footer's picker, the error pages' words any page may need, and the
  // site's description.
  messages: ["language", "errors", "offline", "site"],
} satisfies RouteTraits;

// Every request under the root (pages and the /api alike) passes the
// pipeline first, in the order app/pipeline/pipeline.server.ts writes down.
export const middleware: Route.MiddlewareFunction[] = [...pipeline];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [user, { toast, clear }] = await Promise.all([
    getUser({ request, context }),
    readToast(request),
  ]);
  const styles = stylesheetDelivery(request, stylesheet);
  const headers = new Headers();
  if (clear) headers.append("Set-Cookie", clear);
  if (styles.setCookie) headers.append("Set-Cookie", styles.setCookie);
  // Decided here, on the server, for the whole page; the browser hydrates
  // with these very messages (docs/product-rules.md#languages).
  const language = pageLanguage(request, user?.language);
  // Only this page's areas (docs/decisions/1111-messages-per-page.md), and
  // not in the data itself but named: a file of their own that the browser
  // fetches once and keeps (docs/decisions/1165-messages-in-a-file-of-their-own.md).
  const file = pageMessagesFile(
    language,
    routeMessageAreas(new URL(request.url).pathname),
  );
  const messagesHref = href("/messages/:language/:file", {
    language,
    file: file.name,
  });
  keepMessages(messagesHref, file.messages);
  return data(
    {
      language,
      messagesHref,
      user: user
        ? { id: user.id, username: user.username, avatarUrl: user.avatarUrl }
        : null,
      toast,
      timeZone: readTimeZone(request),
      // The seed of this render's form keys (app/components/keyed-form.tsx):
      // 128 random bits, fresh at every render.
      formKeySeed: newFormKeySeed(),
      inlineCss: styles.inline,
    },
    { headers },
  );
}

/**
 * A navigation renders the next page only once its messages are here: the
 * root's data names their file, fetched the first time a page with these
 * areas is reached. Where it cannot be had (the server gone between the
 * two requests), the page is loaded whole instead, words and all.
 */
export async function clientLoader({
  request,
  serverLoader,
}: Route.ClientLoaderArgs) {
  const root = await serverLoader();
  try {
    await loadMessages(root.messagesHref);
  } catch {
    throw redirectDocument(request.url);
  }
  return root;
}

// No `shouldRevalidate`: with single fetch React Router loads every
// loader again for each navigation, the root's too, and the root's data
// names the page's messages, which change from page to page. One that
// skipped the root would have to keep doing so for a new path
// (docs/decisions/1111-messages-per-page.md; tests/e2e/languages.spec.ts).

/** Routes that export `handle = { hydrate: false }` ship no JavaScript. */
function useHydrates() {
  const matches = useMatches();
  return !matches.some(
    (m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate === false,
  );
}

type OwnLanguage = { language: Language; messages?: Messages };

/**
 * A page may decide its own language, returning `ownLanguage` (its
 * language and messages) from its loader: the share page, which a
 * link-preview crawler reads in the bet's language. Else the root's.
 */
function usePageLanguage(
  root: OwnLanguage | undefined,
): OwnLanguage | undefined {
  const matches = useMatches();
  for (const match of matches) {
    const own = (match.loaderData as { ownLanguage?: OwnLanguage } | undefined)
      ?.ownLanguage;
    if (own) return own;
  }
  return root;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const hydrates = useHydrates();
  const data = useRouteLoaderData<typeof loader>("root");
  const page = usePageLanguage(data);
  const root = data && page ? { ...data, ...page } : data;
  const messages =
    page?.messages ?? (data ? messagesAt(data.messagesHref) : undefined);
  return (
    <html lang={root?.language ?? "en"}>
      <head>
        <meta charSet="utf-8" />
        <meta
          name="viewport"
          content="width=device-width, initial-scale=1, viewport-fit=cover"
        />
        <meta name="theme-color" content="#047857" />
        {hydrates && data ? (
          // Fetched when the scripts start (withModuleAfterFirstPaint),
          // awaited before hydrating (app/entry.client.tsx).
          <meta name="page-messages" content={data.messagesHref} />
        ) : null}
        <Meta />
        <AppStylesheet
          href={stylesheet}
          inline={root?.inlineCss ?? true}
          prefetchOnLoad={hydrates}
        />
        <Links />
        {hydrates ? (
          // Linked by the boot script after the first paint: the browser
          // fetches a linked manifest at the load event, which can come
          // before the paint (docs/decisions/archive/0842-icon-inline-manifest-after-first-paint.md). Without JavaScript, from here.
          <noscript>
            <link rel="manifest" href={MANIFEST_HREF} />
          </noscript>
        ) : (
          <link rel="manifest" href={MANIFEST_HREF} />
        )}
      </head>
      <body className="min-h-dvh">
        {root ? (
          <I18nProvider language={root.language} messages={messages ?? {}}>
            {children}
          </I18nProvider>
        ) : (
          children
        )}
        {hydrates ? (
          <>
            <script
              nonce={nonce}
              dangerouslySetInnerHTML={{ __html: BOOT_SCRIPT }}
            />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  const hydrates = useHydrates();
  useKeepAssetsInServiceWorker();
  return (
    <>
      <Outlet />
      <SiteFooter />
      {hydrates ? <Toaster toast={toast} /> : <StaticToast toast={toast} />}
    </>
  );
}

// A page without a `meta` of its own (the not-found page) gets these, the
// description in the page's language; the root's messages carry the `site`
// area. With no root data (its loader failed) the title alone.
export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? [
        { title: "Fairshake" },
        { name: "description", content: metaT(matches)("site.description") },
      ]
    : [{ title: "Fairshake" }];

// Never a stack trace: the server logs it, the person gets a way back.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <GeneralErrorBoundary error={error} />;
}
