// The page frames several routes share, written once so they cannot drift:
// the public page outside the app shell (join, help, fees, the demo outbox),
// with the logo home; the signed-out card page (forgot password, reset,
// confirm email), a public page holding one card. A profile sub-page has its
// own frame (app/components/profile/profile-sub-page.tsx).
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Logo } from "~/components/logo";
import { useT } from "~/components/i18n";

const PUBLIC_WIDTH = { md: "max-w-md", lg: "max-w-lg", xl: "max-w-xl" };

/** A page outside the app shell: the logo home above the page's own main. */
export function PublicPage({
  width,
  mainClassName,
  children,
}: {
  width: keyof typeof PUBLIC_WIDTH;
  mainClassName?: string;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <div className={`mx-auto min-h-dvh ${PUBLIC_WIDTH[width]} px-4 py-6`}>
      <header className="mb-6">
        <Link to="/" aria-label={t("header.home")}>
          <Logo />
        </Link>
      </header>
      <main className={mainClassName}>{children}</main>
    </div>
  );
}

export function PublicCardPage({
  title,
  children,
}: {
  title: string;
  children: ReactNode;
}) {
  return (
    <PublicPage width="md" mainClassName="card space-y-4">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </PublicPage>
  );
}
