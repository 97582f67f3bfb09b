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
export const handle: RouteTraits = { keptForReading: true };

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
  const bets: BetCardData[] = list.map((b) => ({
    id: b.id,
    title: b.title,
    amountCents: b.amountCents,
    currency: b.currency,
    status: b.status,
    participantCount: b.participants.length,
    deadline: b.deadline.getTime(),
    deadlineLabel: formatMonthDay(b.deadline, timeZone),
    won: b.status === "settled" ? b.winnerId === user.id : null,
    canEdit: mayEditBet(b, user.id),
  }));
  return { tab, bets, now };
}

const EMPTY: Record<Tab, { text: string; action?: React.ReactNode }> = {
  all: {
    text: "You don't have any bets yet.",
    action: (
      <Link to={href("/create-bet")} className="btn-primary">
        Create a Bet
      </Link>
    ),
  },
  created: {
    text: "You haven't created any bets yet.",
    action: (
      <Link to={href("/create-bet")} className="btn-primary">
        Create a Bet
      </Link>
    ),
  },
  joined: {
    text: "You haven't joined any bets yet. Find public bets or enter a bet code to join one.",
    action: (
      <Link to={href("/search")} className="btn-primary">
        Find Bets
      </Link>
    ),
  },
  completed: {
    text: "No completed bets yet. Settled bets appear here once they are settled.",
  },
};

export default function MyBets({ loaderData }: Route.ComponentProps) {
  const { tab, bets, now } = loaderData;
  const navigation = useNavigation();
  const location = useLocation();
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname === location.pathname;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">My Bets</h1>
      <LinkTabs
        label="Bet lists"
        current={tab}
        tabs={[
          { id: "all", label: "All", to: href("/my-bets") },
          {
            id: "created",
            label: "Created",
            to: `${href("/my-bets")}?tab=created`,
          },
          {
            id: "joined",
            label: "Joined",
            to: `${href("/my-bets")}?tab=joined`,
          },
          {
            id: "completed",
            label: "Completed",
            to: `${href("/my-bets")}?tab=completed`,
          },
        ]}
      />
      {loading ? (
        <p role="status" className="text-sm text-slate-600">
          Loading bets...
        </p>
      ) : null}
      {bets.length === 0 ? (
        <section className="card space-y-3 text-center">
          <p className="text-slate-700">{EMPTY[tab].text}</p>
          {EMPTY[tab].action}
        </section>
      ) : (
        <ul className="space-y-3" aria-label="Bets">
          {bets.map((bet) => (
            <BetCard key={bet.id} bet={bet} now={now} />
          ))}
        </ul>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "My Bets · Fairshake" },
];
