import { data, href } from "react-router";
import type { Route } from "./+types/financial-history";
import { FinancePanel } from "~/components/finance/finance-panel";
import { loadFinances } from "~/routes/payments/finances.server";
import { requireUser } from "~/models/accounts/session.server";
import { metaT, useT } from "~/components/i18n";
import type { RouteTraits } from "~/domain/route-traits";

export const handle: RouteTraits = { messages: ["finances"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const { finances, status } = await loadFinances(request, user);
  const refreshed = new URL(request.url).searchParams.get("refreshed") === "1";
  return data({ finances, refreshed }, { status });
}

export default function FinancialHistory({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t("finances.heading")}</h1>
      <FinancePanel
        finances={loaderData.finances}
        path={href("/financial-history")}
        refreshed={loaderData.refreshed}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("finances.pageTitle") },
];
