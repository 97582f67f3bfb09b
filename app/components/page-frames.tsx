// The two page frames several routes share, written once so they cannot
// drift: the signed-out card page (forgot password, reset, confirm email),
// with the logo home and one card; and a profile sub-page (security,
// notifications, your data), with its way back to the profile.
import type { ReactNode } from "react";
import { Link, href } from "react-router";
import { Logo } from "~/components/logo";

export function PublicCardPage({
  title,
  children,
}: {
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto min-h-dvh max-w-md px-4 py-6">
      <header className="mb-6">
        <Link to="/" aria-label="Fairshake home">
          <Logo />
        </Link>
      </header>
      <main className="card space-y-4">
        <h1 className="text-2xl font-bold">{title}</h1>
        {children}
      </main>
    </div>
  );
}

export function ProfileSubPage({
  title,
  children,
}: {
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <p>
        <Link to={href("/profile")} className="text-brand-700 underline">
          Back to Profile
        </Link>
      </p>
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </div>
  );
}
