import { useT } from "~/components/i18n";
import { href, Link } from "react-router";

/**
 * The way back from one of a bet's screens (settlement, payment) to the
 * bet; with no bet to go back to (an id that is not one), the way home.
 */
export function BackToBet({ betId }: { betId: number | null }) {
  const t = useT();
  return betId ? (
    <Link
      to={href("/bet/:id", { id: String(betId) })}
      className="btn-secondary"
    >
      {t("common.backToBet")}
    </Link>
  ) : (
    <Link to={href("/")} className="btn-secondary">
      {t("common.home")}
    </Link>
  );
}
