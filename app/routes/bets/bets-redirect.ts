import { redirect, href } from "react-router";
import type { Route } from "./+types/bets-redirect";

// docs/product-rules.md#screens: /bets/{id} is the same screen as /bet/{id}, permanently.
export function loader({ params }: Route.LoaderArgs) {
  return redirect(href("/bet/:id", { id: encodeURIComponent(params.id) }), 301);
}
