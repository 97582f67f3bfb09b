// The Join form's action, one for both doors (/bet/{id} and /join/{code}):
// `joinBet` asks `joinRefusal` (docs/product-rules.md#joining) at commit
// time; the page answers a join with the toast, a refusal on the form.
import { href } from "react-router";
import { joinBet } from "~/models/bets/bet.server";
import { parseVersion } from "~/models/bets/bet-input.server";
import { formFailure } from "~/framework/page.server";
import { formatMoney } from "~/domain/currency";
import { redirectWithToast } from "~/framework/toast.server";

/**
 * Joins the bet `findBet` names (a route's own way to it: the id, or opening
 * by code) with the version the form showed.
 */
export async function joinFromForm({
  userId,
  form,
  findBet,
}: {
  userId: number;
  form: FormData;
  findBet: () => Promise<number>;
}) {
  try {
    const bet = await joinBet({
      betId: await findBet(),
      userId,
      version: parseVersion(form.get("version")),
    });
    return redirectWithToast(href("/bet/:id", { id: String(bet.id) }), {
      title: "You joined the bet!",
      description: `You're in "${bet.title}" for ${formatMoney(bet.amountCents, bet.currency)}.`,
    });
  } catch (error) {
    // A page's own answer (opening by code: 404, too many tries) stays the page's.
    if (error instanceof Response) throw error;
    return formFailure(error, "Failed to join bet");
  }
}
