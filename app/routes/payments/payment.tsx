import { metaT, useT } from "~/components/i18n";
import { Link, data, redirect, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { BackToBet } from "~/components/back-to-bet";
import type { Route } from "./+types/payment";
import { FormAlert } from "~/components/forms";
import { NoticeCard } from "~/components/notice-card";
import { MoneySummary } from "~/components/settlement/money-summary";
import { PAYMENT_ERROR_TITLE } from "~/domain/payment";
import { paymentOptions } from "~/models/payments/pay-bet.server";
import { PAYMENTS_UNAVAILABLE_NOTICE } from "~/models/payments/payment.server";
import { isDemoMode } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { requireUser } from "~/models/accounts/session.server";
import { formFailure } from "~/framework/page.server";
import { getPayable, loadPayable } from "./load.server";
import { readFormData } from "~/framework/form-data.server";
import type { RouteTraits } from "~/domain/route-traits";

/** The other methods are shown, disabled: a forged post of one is refused. */
const ONLY_CARD = new DomainError(
  400,
  "Only card payments are supported in the demo...",
  undefined,
  PAYMENTS_UNAVAILABLE_NOTICE.title,
);

const COMING_SOON = [
  { id: "applePay", label: "Apple Pay" },
  { id: "googlePay", label: "Google Pay" },
  { id: "paypal", label: "PayPal" },
  { id: "venmo", label: "Venmo" },
  { id: "zelle", label: "Zelle" },
];

// Paying never waits on the device.
export const handle: RouteTraits = {
  messages: ["pay", "common", "money", "settlement"],
  offline: false,
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const payable = await loadPayable(params.id, user.id);
  return data(
    {
      ...payable,
      available: paymentOptions().provider !== null,
      unavailable: PAYMENTS_UNAVAILABLE_NOTICE,
      isDemoMode,
    },
    { status: payable.status },
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  let payable: Awaited<ReturnType<typeof getPayable>>;
  try {
    payable = await getPayable(params.id, user.id);
    const method = (await readFormData(request)).get("method");
    if (method !== "card") throw ONLY_CARD;
  } catch (error) {
    return formFailure(error, PAYMENT_ERROR_TITLE);
  }
  return redirect(href("/checkout/:id", { id: String(payable.betId) }));
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function PaymentPage({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { bet, betId, refusal, available, unavailable, isDemoMode } =
    loaderData;
  const t = useT();
  if (!bet) {
    return (
      <NoticeCard title={t("pay.title")} message={refusal ?? undefined}>
        <BackToBet betId={betId} />
      </NoticeCard>
    );
  }
  if (bet.paid) {
    return (
      <NoticeCard title={t("pay.title")} message={refusal ?? undefined}>
        <Link to={href("/financial-history")} className="btn-secondary">
          {t("pay.history")}
        </Link>
      </NoticeCard>
    );
  }
  return (
    <div className="space-y-4">
      <section className="card" aria-labelledby="summary-heading">
        <h1 id="summary-heading" className="text-xl font-bold">
          {t("pay.summary")}
        </h1>
        <p className="mb-2 text-sm text-slate-600">
          {t("pay.youPayWinner", {
            title: bet.title,
            winner: bet.winnerName,
          })}
        </p>
        <MoneySummary
          amountCents={bet.amountCents}
          currency={bet.currency}
          feeCents={bet.feeCents}
          netCents={bet.netCents}
          youPay
        />
      </section>
      {isDemoMode ? (
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {t("pay.demo")}
        </p>
      ) : null}
      <FormAlert title={actionData?.title} message={actionData?.message} />
      {available ? (
        <KeyedForm
          method="post"
          className="card space-y-3"
          aria-label={t("pay.method")}
        >
          <fieldset className="space-y-2">
            <legend className="label">{t("pay.method")}</legend>
            <label className="flex min-h-11 items-center gap-3 rounded-lg border border-brand-600 bg-brand-50 px-3">
              <input
                type="radio"
                name="method"
                value="card"
                defaultChecked
                className="size-5 accent-brand-600"
              />
              {t("pay.card")}
            </label>
            {COMING_SOON.map((m) => (
              <label
                key={m.id}
                className="flex min-h-11 items-center justify-between gap-3 rounded-lg border border-slate-200 px-3 text-slate-500"
              >
                <span className="flex items-center gap-3">
                  <input
                    type="radio"
                    name="method"
                    value={m.id}
                    disabled
                    className="size-5"
                  />
                  {m.label}
                </span>
                <span className="badge bg-slate-100">
                  {t("pay.comingSoon")}
                </span>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="btn-primary w-full">
            {t("pay.continue")}
          </button>
        </KeyedForm>
      ) : (
        <FormAlert title={unavailable.title} message={unavailable.message} />
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("pay.pageTitle") },
];
