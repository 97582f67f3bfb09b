import { Outlet } from "react-router";
import type { Route } from "./+types/app-layout";
import { AppHeader, BottomNav } from "~/components/app-shell";
import { VerifyEmailBanner } from "~/components/verify-email-banner";
import { countUnreadActivity } from "~/models/social/activity.server";
import { requireUser } from "~/models/accounts/session.server";

// Every screen inside this layout is protected: the guard redirects a
// visitor to /auth?return_to=… on the server (302).
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  return {
    username: user.username,
    unread: countUnreadActivity(user.id),
    emailVerified: user.emailVerified,
  };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AppHeader username={loaderData.username} unread={loaderData.unread} />
      <main className="mx-auto max-w-3xl px-4 pb-28 pt-4">
        {loaderData.emailVerified ? null : <VerifyEmailBanner />}
        <Outlet />
      </main>
      <BottomNav />
    </>
  );
}
