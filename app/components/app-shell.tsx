import { Form, Link, NavLink, href, useSubmit } from "react-router";
import { Logo } from "./logo";
import { discardKeptBeforeSignOut, OfflineQueue } from "./offline-queue";
import { initials } from "~/utils/initials";
import { useT } from "./i18n";

export function AppHeader({
  userId,
  username,
  unread,
}: {
  userId: number;
  username: string;
  unread: number;
}) {
  const submit = useSubmit();
  const t = useT();
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-3xl items-center justify-between px-4">
        <Link to="/" aria-label={t("header.home")}>
          <Logo />
        </Link>
        <div className="flex items-center gap-1">
          <OfflineQueue userId={userId} />
          <Link
            to={href("/notifications")}
            className="relative inline-flex size-11 items-center justify-center rounded-full hover:bg-slate-100"
            aria-label={
              unread > 0
                ? t("header.notificationsUnread", { unread })
                : t("header.notifications")
            }
          >
            <BellIcon />
            {unread > 0 ? (
              <span
                className="badge absolute right-0.5 top-0.5 min-w-5 justify-center bg-red-600 px-1 text-white"
                aria-hidden="true"
              >
                {unread > 99 ? "99+" : unread}
              </span>
            ) : null}
          </Link>
          {/* Named by its words, not an aria-label: the initials a person
              sees would otherwise be missing from the name a voice user
              says (WCAG 2.5.3, label in name). */}
          <Link
            to={href("/profile")}
            className="inline-flex size-11 items-center justify-center rounded-full"
          >
            <span className="sr-only">
              {t("header.profileOf", { username })}
            </span>
            <span
              aria-hidden="true"
              className="inline-flex size-9 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white"
            >
              {initials(username)}
            </span>
          </Link>
          <Form
            method="post"
            action={href("/logout")}
            onSubmit={(event) => {
              // Actions kept on this phone are asked about, then deleted
              // (docs/product-rules.md#shaky-connections).
              event.preventDefault();
              const form = event.currentTarget;
              void discardKeptBeforeSignOut(userId, t).then((go) => {
                if (go) void submit(form);
              });
            }}
          >
            <button
              type="submit"
              className="inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
            >
              {t("header.logout")}
            </button>
          </Form>
        </div>
      </div>
    </header>
  );
}

const navItem =
  "flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-medium text-slate-600 aria-[current=page]:text-brand-700";

export function BottomNav() {
  const t = useT();
  return (
    <nav
      aria-label={t("nav.main")}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)]"
    >
      <div className="mx-auto flex max-w-3xl items-stretch">
        <NavLink to="/" end className={navItem}>
          <Icon d="M3 11l9-8 9 8v9a1 1 0 01-1 1h-5v-6H9v6H4a1 1 0 01-1-1z" />
          {t("nav.home")}
        </NavLink>
        <NavLink to={href("/search")} className={navItem}>
          <Icon d="M11 4a7 7 0 105.2 11.7L21 20M11 4a7 7 0 017 7" />
          {t("nav.discover")}
        </NavLink>
        <Link
          to={href("/create-bet")}
          className="flex flex-1 items-center justify-center"
          aria-label={t("nav.createBet")}
        >
          <span className="inline-flex size-12 items-center justify-center rounded-full bg-brand-600 text-white shadow-md">
            <Icon d="M12 5v14M5 12h14" />
          </span>
        </Link>
        <NavLink to={href("/my-bets")} className={navItem}>
          <Icon d="M4 6h16M4 12h16M4 18h10" />
          {t("nav.myBets")}
        </NavLink>
        <NavLink to={href("/notifications")} className={navItem}>
          <Icon d="M4 13h4l2 5 4-12 2 7h4" />
          {t("nav.activity")}
        </NavLink>
      </div>
    </nav>
  );
}

function Icon({ d }: { d: string }) {
  return (
    <svg
      aria-hidden="true"
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={d} />
    </svg>
  );
}

function BellIcon() {
  return <Icon d="M6 8a6 6 0 1112 0c0 7 3 8 3 8H3s3-1 3-8M10 20a2 2 0 004 0" />;
}
