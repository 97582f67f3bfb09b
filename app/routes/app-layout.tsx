import type { RouteTraits } from "~/domain/route-traits";
import { Outlet } from "react-router";
import type { Route } from "./+types/app-layout";
import { AppHeader, BottomNav } from "~/components/app-shell";
import { VerifyEmailBanner } from "~/components/verify-email-banner";
import { headerReadings } from "~/models/social/activity.server";
import { requireUser, sessionHashOf } from "~/models/accounts/session.server";
import { useLiveUpdates } from "~/browser/live-updates";

// Every screen inside this layout is protected: the guard redirects a
// visitor to /auth?return_to=… on the server (302).

export const handle: RouteTraits = {
  messages: ["header", "nav", "verifyBanner", "kept"],
};

export async function loader({ request, context }: Route.LoaderArgs) {
  // Read first, before any await lets the page's own loader read its data:
  // the stream then sends whatever changed after that data was read. The
  // header's unread count comes in the same statement.
  const { liveCursor, unread } = await headerReadings(sessionHashOf(request));
  const user = await requireUser({ request, context });
  return {
    userId: user.id,
    username: user.username,
    unread,
    emailVerified: user.emailVerified,
    // Where this page's data stands among live events
    // (docs/product-rules.md#live-pages).
    liveCursor,
  };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  useLiveUpdates(loaderData.liveCursor);
  return (
    <>
      <AppHeader
        userId={loaderData.userId}
        username={loaderData.username}
        unread={loaderData.unread}
      />
      <main className="mx-auto max-w-3xl px-4 pb-28 pt-4">
        {loaderData.emailVerified ? null : <VerifyEmailBanner />}
        <Outlet />
      </main>
      <BottomNav />
    </>
  );
}
