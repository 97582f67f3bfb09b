import { metaT, useT, type MessageKey } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { intlLocale } from "~/domain/language";
import { Link, useLocation, useNavigation, href } from "react-router";
import type { Route } from "./+types/my-bets";
import { BetCard, type BetCardData } from "~/components/bets/bet-card";
import { LinkTabs } from "~/components/ui/link-tabs";
import { listAllUserBets, listUserBets } from "~/models/bets/bet-lists.server";
import type { BetView } from "~/models/bets/bet-access.server";
import { mayEditBet } from "~/models/bets/bet-policy.server";
import { formatMonthDay } from "~/utils/dates";
import { requireUser } from "~/models/accounts/session.server";
import { readTimeZone } from "~/utils/time-zone.server";
import type { RouteTraits } from "~/domain/route-traits";

const TABS = ["all", "created", "joined", "completed"] as const;
type Tab = (typeof TABS)[number];

// Kept for reading offline.
export const handle: RouteTraits = {
  messages: ["myBets", "betCard", "status"],
  keptForReading: true,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const raw = new URL(request.url).searchParams.get("tab");
  const tab: Tab = TABS.find((t) => t === raw) ?? "all";
  const now = Date.now();
  const list: BetView[] =
    tab === "all"
      ? await listAllUserBets(user.id, now)
      : await listUserBets(user.id, tab, now);
  const timeZone = readTimeZone(request);
  const locale = intlLocale(pageLanguage(request, user.language));
  const bets: BetCardData[] = list.map((b) => ({
    id: b.id,
    title: b.title,
    amountCents: b.amountCents,
    currency: b.currency,
    status: b.status,
    participantCount: b.participants.length,
    deadline: b.deadline.getTime(),
    deadlineLabel: formatMonthDay(b.deadline, timeZone, locale),
    won: b.status === "settled" ? b.winnerId === user.id : null,
    canEdit: mayEditBet(b, user.id),
  }));
  return { tab, bets, now };
}

/** What an empty tab says, and where it sends you. */
const EMPTY: Record<Tab, { text: MessageKey; action?: "create" | "find" }> = {
  all: { text: "myBets.emptyAll", action: "create" },
  created: { text: "myBets.emptyCreated", action: "create" },
  joined: { text: "myBets.emptyJoined", action: "find" },
  completed: { text: "myBets.emptyCompleted" },
};

export default function MyBets({ loaderData }: Route.ComponentProps) {
  const { tab, bets, now } = loaderData;
  const navigation = useNavigation();
  const location = useLocation();
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname === location.pathname;
  const t = useT();
  const empty = EMPTY[tab];
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t("myBets.heading")}</h1>
      <LinkTabs
        label={t("myBets.lists")}
        current={tab}
        tabs={[
          { id: "all", label: t("myBets.all"), to: href("/my-bets") },
          {
            id: "created",
            label: t("myBets.created"),
            to: `${href("/my-bets")}?tab=created`,
          },
          {
            id: "joined",
            label: t("myBets.joined"),
            to: `${href("/my-bets")}?tab=joined`,
          },
          {
            id: "completed",
            label: t("myBets.completed"),
            to: `${href("/my-bets")}?tab=completed`,
          },
        ]}
      />
      {loading ? (
        <p role="status" className="text-sm text-slate-600">
          {t("myBets.loading")}
        </p>
      ) : null}
      {bets.length === 0 ? (
        <section className="card space-y-3 text-center">
          <p className="text-slate-700">{t(empty.text)}</p>
          {empty.action === "create" ? (
            <Link to={href("/create-bet")} className="btn-primary">
              {t("myBets.createABet")}
            </Link>
          ) : empty.action === "find" ? (
            <Link to={href("/search")} className="btn-primary">
              {t("myBets.findBets")}
            </Link>
          ) : null}
        </section>
      ) : (
        <ul className="space-y-3" aria-label={t("myBets.list")}>
          {bets.map((bet) => (
            <BetCard key={bet.id} bet={bet} now={now} />
          ))}
        </ul>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("myBets.pageTitle") },
];
