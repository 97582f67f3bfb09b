import { useEffect } from "react";
import { data, Link, redirect, useFetcher, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import type { Route } from "./+types/notifications";
import { FinancePanel } from "~/components/finance/finance-panel";
import { LinkTabs } from "~/components/ui/link-tabs";
import {
  activityHref,
  countUnreadActivity,
  listActivity,
  markAllActivityRead,
} from "~/models/social/activity.server";
import { relativeTimeIn } from "~/framework/dates-in-language.server";
import { pageLanguage } from "~/framework/language.server";
import { writeText } from "~/messaging/activity-text.server";
import { metaT, useT } from "~/components/i18n";
import { loadFinances } from "~/routes/payments/finances.server";
import { requireUser } from "~/models/accounts/session.server";
import { readFormData } from "~/framework/form-data.server";
import type { RouteTraits } from "~/domain/route-traits";

// Kept for reading offline; marking read is not kept.
export const handle: RouteTraits = {
  messages: ["activity", "finances"],
  keptForReading: true,
  offline: false,
};

// /notifications: tabs Activity (default) and Finances, as links (docs/product-rules.md#forms-and-messages).
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const tab =
    new URL(request.url).searchParams.get("tab") === "finances"
      ? "finances"
      : "activity";
  if (tab === "finances") {
    const { finances, status } = await loadFinances(request, user);
    const refreshed =
      new URL(request.url).searchParams.get("refreshed") === "1";
    return data(
      { tab, events: [], unread: 0, finances, refreshed },
      { status },
    );
  }
  const language = pageLanguage(request, user.language);
  return {
    tab,
    finances: null,
    refreshed: false,
    unread: await countUnreadActivity(user.id),
    events: (await listActivity(user.id)).map((e) => ({
      id: e.id,
      // Written in the reader's language from the words the event kept;
      // an event older than that has only its English.
      message: e.data ? writeText(e.data, language) : e.message,
      read: e.read,
      when: relativeTimeIn(e.createdAt, language),
      at: e.createdAt.toISOString(),
      href: activityHref(e),
    })),
  };
}

// Marking read is a POST, never a side effect of opening the page (docs/product-rules.md#forms-and-messages).
// The button (no JavaScript) gets a redirect back to the page; the background
// POST the page sends when it opens gets plain data: a redirect answering a
// fetcher is a navigation, which would load this page a second time on a slow
// phone for nothing (the bell's count revalidates after any action anyway).
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  if (form.get("intent") === "mark-read") await markAllActivityRead(user.id);
  if (form.get("background") === "1") return data({ marked: true });
  return redirect(href("/notifications"));
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { tab } = loaderData;
  const t = useT();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t("activity.heading")}</h1>
      <LinkTabs
        label={t("activity.sections")}
        current={tab}
        tabs={[
          {
            id: "activity",
            label: t("activity.tabActivity"),
            to: href("/notifications"),
          },
          {
            id: "finances",
            label: t("activity.tabFinances"),
            to: `${href("/notifications")}?tab=finances`,
          },
        ]}
      />
      {tab === "activity" ? (
        <ActivityFeed events={loaderData.events} unread={loaderData.unread} />
      ) : loaderData.finances ? (
        <>
          <FinancePanel
            finances={loaderData.finances}
            path={href("/notifications")}
            keep={{ tab: "finances" }}
            refreshed={loaderData.refreshed}
          />
          <Link
            to={href("/financial-history")}
            className="btn-secondary w-full"
          >
            {t("activity.fullHistory")}
          </Link>
        </>
      ) : null}
    </div>
  );
}

type Event = Route.ComponentProps["loaderData"]["events"][number];

function ActivityFeed({ events, unread }: { events: Event[]; unread: number }) {
  const fetcher = useFetcher();
  const t = useT();
  // With JavaScript, opening the tab marks everything read by a POST.
  useEffect(() => {
    if (unread > 0 && fetcher.state === "idle" && !fetcher.data)
      fetcher.submit(
        { intent: "mark-read", background: "1" },
        { method: "post" },
      );
  }, [unread, fetcher]);

  if (events.length === 0)
    return (
      <div className="card text-center">
        <p className="font-semibold">{t("activity.none")}</p>
        <p className="text-sm text-slate-600">{t("activity.noneHint")}</p>
      </div>
    );
  return (
    <section aria-label={t("activity.feed")} className="space-y-3">
      {unread > 0 ? (
        <KeyedForm method="post" className="flex justify-end">
          <input type="hidden" name="intent" value="mark-read" />
          <button type="submit" className="btn-secondary">
            {t("activity.markRead")}
          </button>
        </KeyedForm>
      ) : null}
      <ol className="space-y-2">
        {events.map((e) => (
          <li
            key={e.id}
            className={`card flex items-start justify-between gap-3 ${e.read ? "" : "border-brand-600"}`}
          >
            <div className="min-w-0">
              {e.href ? (
                <Link
                  to={e.href}
                  className="font-medium underline-offset-2 hover:underline"
                >
                  {e.message}
                </Link>
              ) : (
                <p className="font-medium">{e.message}</p>
              )}
              <p className="text-xs text-slate-600">
                <time dateTime={e.at}>{e.when}</time>
              </p>
            </div>
            {e.read ? null : (
              <span className="badge bg-brand-100 text-brand-800">
                {t("activity.new")}
              </span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("activity.pageTitle") },
];
