// A page that waits on someone else says so (docs/product-rules.md#live-pages).
// With JavaScript the page updates by itself when they move; without it,
// nothing changes until a reload, so a plain link reloads this same page.
import { useLocation } from "react-router";
import { useT } from "~/components/i18n";

export function WaitingNotice({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  const t = useT();
  return (
    <p
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
    >
      <span>{children}</span>
      <a href={`${location.pathname}${location.search}`} className="underline">
        {t("bet.refresh")}
      </a>
    </p>
  );
}
