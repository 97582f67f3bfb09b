// A profile sub-page (security, notifications, your data): its way back to
// the profile above its title.
import type { ReactNode } from "react";
import { Link, href } from "react-router";
import { useT } from "~/components/i18n";

export function ProfileSubPage({
  title,
  children,
}: {
  title: string;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <div className="space-y-4">
      <p>
        <Link to={href("/profile")} className="text-brand-700 underline">
          {t("subPage.backToProfile")}
        </Link>
      </p>
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </div>
  );
}
