import {
  data,
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
import { Toaster, StaticToast } from "~/components/toaster";
import { AppStylesheet } from "~/utils/inline-css";
import { useNonce } from "~/utils/nonce";
import { useKeepAssetsInServiceWorker } from "~/utils/service-worker";
import { getUser, sessionMiddleware } from "~/models/session.server";
import { readToast } from "~/utils/toast.server";
import { stylesheetDelivery } from "~/utils/inline-css.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icon-192.png" },
];

// Who the user is is looked up once per request, for every loader and action
// under the root (pages and the /api alike): docs/decisions/0811.
export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [user, { toast, clear }] = await Promise.all([
    getUser({ request, context }),
    readToast(request),
  ]);
  const styles = stylesheetDelivery(request, stylesheet);
  const headers = new Headers();
  if (clear) headers.append("Set-Cookie", clear);
  if (styles.setCookie) headers.append("Set-Cookie", styles.setCookie);
  return data(
    {
      user: user
        ? { id: user.id, username: user.username, avatarUrl: user.avatarUrl }
        : null,
      toast,
      timeZone: readTimeZone(request),
      inlineCss: styles.inline,
    },
    { headers },
  );
}

/** Routes that export `handle = { hydrate: false }` ship no JavaScript. */
function useHydrates() {
  const matches = useMatches();
  return !matches.some(
    (m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate === false,
  );
}

// Remembers the browser's time zone in a cookie so the server can show and
// read dates in it (ruling 17). Only on pages that run JavaScript anyway.
// Also registers the service worker (public/sw.js: the offline page, and the
// hashed assets, which the hydrated page names to it:
// useKeepAssetsInServiceWorker).
// All of it waits for the load event, after the document's own requests: the
// first `Intl.DateTimeFormat()` in a page loads the browser's time zone data,
// 15–30 ms of main thread (60–120 ms on Lighthouse's 4× slower phone), and as
// a parser-inserted script it ran before anything was painted, holding every
// hydrated page's first and largest paint behind it (docs/decisions/0830). A
// request sent before the load goes with the zone the server already assumed,
// as on any first visit. On a first visit (stylesheet inline) it also
// prefetches the stylesheet for the next page, which the head no longer does
// on pages with scripts: there it competed with the first paint's own
// requests.
const BOOT_SCRIPT = `addEventListener("load",function(){var c=document.querySelector("style[data-href]");if(c){var l=document.createElement("link");l.rel="prefetch";l.as="style";l.href=c.getAttribute("data-href");document.head.appendChild(l)}try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&document.cookie.indexOf("tz="+encodeURIComponent(z))<0)document.cookie="tz="+encodeURIComponent(z)+";path=/;max-age=31536000;samesite=lax"}catch(e){}if("serviceWorker"in navigator)navigator.serviceWorker.register("/sw.js").catch(function(){})});`;

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const hydrates = useHydrates();
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta
          name="viewport"
          content="width=device-width, initial-scale=1, viewport-fit=cover"
        />
        <meta name="theme-color" content="#047857" />
        <Meta />
        <AppStylesheet
          href={stylesheet}
          inline={root?.inlineCss ?? true}
          prefetchOnLoad={hydrates}
        />
        <Links />
      </head>
      <body className="min-h-dvh">
        {children}
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
      {hydrates ? <Toaster toast={toast} /> : <StaticToast toast={toast} />}
    </>
  );
}

export function meta() {
  return [
    { title: "Fairshake" },
    { name: "description", content: "Bet with friends, not bookies." },
  ];
}

// Never a stack trace: the server logs it, the person gets a way back.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <GeneralErrorBoundary error={error} />;
}
