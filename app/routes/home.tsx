import { Link, href } from "react-router";
import type { Route } from "./+types/home";
import { PullToRefresh } from "~/components/bets/pull-to-refresh";
import { getDashboard } from "~/models/bets/bet-lists.server";
import { requireUser } from "~/models/accounts/session.server";
import { winRate } from "~/utils/money";
import { formatMoney } from "~/domain/currency";
import { serverT } from "~/framework/catalogs.server";
import { pageLanguage } from "~/framework/language.server";
import type { RouteTraits } from "~/domain/route-traits";
import { metaT, useLanguage, useT } from "~/components/i18n";

const HOME_LIST_LIMIT = 3;

// Kept for reading offline.
export const handle: RouteTraits = { messages: ["home"], keptForReading: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const dashboard = await getDashboard(user.id, Date.now(), HOME_LIST_LIMIT);
  return {
    username: user.username,
    wins: user.winCount,
    losses: user.lossCount,
    createdCount: dashboard.createdCount,
    joinedCount: dashboard.joinedCount,
    atStake: dashboard.atStake,
    // Worded here, not in the browser: a plural message builds the page's
    // first Intl number formatter, 20–35 ms of main thread here (more on a
    // phone) while it hydrates (docs/decisions/1169-counts-worded-by-the-loader.md).
    atStakeCountText: serverT(pageLanguage(request, user.language))(
      "home.activeCount",
      { count: dashboard.atStakeCount },
    ),
    total: dashboard.total,
    rows: dashboard.recent.map((b) => ({
      id: b.id,
      code: b.code,
      title: b.title,
      amountCents: b.amountCents,
      currency: b.currency,
      type: b.type,
      creatorName: b.creatorName,
    })),
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const d = loaderData;
  const activeCount = d.createdCount + d.joinedCount;
  const more = d.total - d.rows.length;
  const t = useT();
  const language = useLanguage();
  return (
    <div className="space-y-4">
      <PullToRefresh />
      <h1 className="text-2xl font-bold">
        {t("home.hi", { username: d.username })}
      </h1>
      <section className="card" aria-labelledby="active-heading">
        <details>
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2">
            <span>
              <span
                id="active-heading"
                className="block text-sm font-medium text-slate-600"
              >
                {t("home.activeBets")}
              </span>
              <span className="text-3xl font-bold">{activeCount}</span>
            </span>
            <span className="text-right text-xs text-slate-600">
              {t("home.createdJoined", {
                created: d.createdCount,
                joined: d.joinedCount,
              })}
              <span className="block text-brand-700">{t("home.showBets")}</span>
            </span>
          </summary>
          {activeCount === 0 ? (
            <div className="mt-3 space-y-2 text-center">
              <p className="text-slate-700">{t("home.noActive")}</p>
              <Link to={href("/create-bet")} className="btn-primary">
                {t("home.createABet")}
              </Link>
            </div>
          ) : (
            <div className="mt-3 space-y-2">
              <ul
                className="divide-y divide-slate-100"
                aria-label={t("home.activeBetsList")}
              >
                {d.rows.map((b) => (
                  <li key={b.id}>
                    <Link
                      to={href("/bet/:id", { id: String(b.id) })}
                      className="flex min-h-11 items-center justify-between gap-2 py-2"
                    >
                      <span className="min-w-0">
                        <span className="flex items-center gap-2 text-xs">
                          <span
                            className={`badge ${b.type === "created" ? "bg-brand-100 text-brand-800" : "bg-sky-100 text-sky-900"}`}
                          >
                            {b.type === "created"
                              ? t("home.created")
                              : t("home.joined")}
                          </span>
                          <span className="font-mono text-slate-600">
                            {b.code}
                          </span>
                        </span>
                        <span className="block truncate font-medium">
                          {b.title}
                        </span>
                        <span className="block text-xs text-slate-600">
                          {t("home.with", {
                            name: b.creatorName ?? t("home.unknown"),
                          })}
                        </span>
                      </span>
                      <span className="font-semibold">
                        {formatMoney(b.amountCents, b.currency, language, {
                          whole: true,
                        })}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
              {more > 0 ? (
                <Link
                  to={href("/my-bets")}
                  className="block text-sm font-medium text-brand-700"
                >
                  {t("home.viewMore", { more })}
                </Link>
              ) : null}
              <Link to={href("/my-bets")} className="btn-secondary w-full">
                {t("home.viewAll")}
              </Link>
            </div>
          )}
        </details>
      </section>
      <div className="grid grid-cols-2 gap-4">
        <section className="card" aria-labelledby="record-heading">
          <h2
            id="record-heading"
            className="text-sm font-medium text-slate-600"
          >
            {t("home.record")}
          </h2>
          <p className="text-3xl font-bold">
            {d.wins} - {d.losses}
          </p>
          <p className="text-sm text-slate-600">
            {t("home.winRate", { rate: winRate(d.wins, d.losses) })}
          </p>
        </section>
        <section className="card" aria-labelledby="stake-heading">
          <h2 id="stake-heading" className="text-sm font-medium text-slate-600">
            {t("home.atStake")}
          </h2>
          {/* One figure per currency: money of two currencies is never added. */}
          {d.atStake.length === 0 ? (
            <p className="text-3xl font-bold">
              {formatMoney(0, "USD", language)}
            </p>
          ) : (
            d.atStake.map((s) => (
              <p key={s.currency} className="text-3xl font-bold">
                {formatMoney(s.cents, s.currency, language)}
              </p>
            ))
          )}
          <p className="text-sm text-slate-600">{d.atStakeCountText}</p>
        </section>
      </div>
      <section className="card" aria-labelledby="quick-heading">
        <h2 id="quick-heading" className="mb-3 font-semibold">
          {t("home.quickActions")}
        </h2>
        <div className="grid grid-cols-2 gap-2">
          <Link to={href("/create-bet")} className="btn-primary">
            {t("home.createNew")}
          </Link>
          <Link to={href("/my-bets")} className="btn-secondary">
            {t("home.viewAllBets")}
          </Link>
        </div>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("home.title") },
];
