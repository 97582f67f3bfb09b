import { Link } from "react-router";
import type { Route } from "./+types/home";
import { requireUser } from "~/utils/session.server";
import { winRate } from "~/utils/money";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return {
    username: user.username,
    wins: user.winCount,
    losses: user.lossCount,
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { username, wins, losses } = loaderData;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Hi, {username}</h1>
      <section className="card" aria-labelledby="record-heading">
        <h2 id="record-heading" className="text-sm font-medium text-slate-600">
          Win/Loss Record
        </h2>
        <p className="text-3xl font-bold">
          {wins} - {losses}
        </p>
        <p className="text-sm text-slate-600">
          Win rate {winRate(wins, losses)}%
        </p>
      </section>
      <section className="card" aria-labelledby="quick-heading">
        <h2 id="quick-heading" className="mb-3 font-semibold">
          Quick Actions
        </h2>
        <div className="grid grid-cols-2 gap-2">
          <Link to="/create-bet" className="btn-primary">
            Create New Bet
          </Link>
          <Link to="/my-bets" className="btn-secondary">
            View All Bets
          </Link>
        </div>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Home · Fairshake" }];
