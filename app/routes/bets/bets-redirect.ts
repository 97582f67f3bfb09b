import { redirect } from "react-router";
import type { Route } from "./+types/bets-redirect";

// Ruling 12: /bets/{id} is the same screen as /bet/{id}, permanently.
export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/bet/${encodeURIComponent(params.id)}`, 301);
}
