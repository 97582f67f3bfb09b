import { lazy, Suspense, useEffect } from "react";
import { Link, data, redirect, useNavigate, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { BackToBet } from "~/components/back-to-bet";
import type { Route } from "./+types/checkout";
import { FormAlert } from "~/components/forms";
import { Confetti } from "~/components/payments/confetti";
import { DemoCardForm } from "~/components/payments/demo-card-form";
import { NoticeCard } from "~/components/notice-card";
import { PAYMENT_WENT_WRONG, paymentFailureTitle } from "~/domain/payment";
import { payBet, paymentOptions } from "~/models/payments/pay-bet.server";
import {
  PAYMENTS_UNAVAILABLE_CODE,
  PAYMENTS_UNAVAILABLE_NOTICE,
} from "~/models/payments/payment.server";
import { publicOrigin } from "~/utils/env-settings.server";
import { formatMoney } from "~/domain/currency";
import { requireUser } from "~/models/accounts/session.server";
import { formReply, pageFailureOr } from "~/framework/page.server";
import { redirectWithToast, toastCookieHeader } from "~/framework/toast.server";
import { getPayable, loadPayable } from "./load.server";
import { readFormData } from "~/framework/form-data.server";
import { useHydrated } from "~/components/use-hydrated";
import type { RouteTraits } from "~/domain/route-traits";
import { metaT, useLanguage, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";

const StripePayment = lazy(
  () => import("~/components/payments/stripe-payment"),
);

// Paying never waits on the device.
export const handle: RouteTraits = {
  messages: ["common", "checkout", "nav"],
  offline: false,
};

export const REDIRECT_AFTER_PAYMENT_MS = 2000;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const payable = await loadPayable(params.id, user.id);
  return data(
    {
      ...payable,
      ...paymentOptions(),
      unavailable: PAYMENTS_UNAVAILABLE_NOTICE,
    },
    { status: payable.status },
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  let payable: Awaited<ReturnType<typeof getPayable>>;
  try {
    // The model's refusals (unseen, not the loser, not settled, already
    // paid, no provider, the card) in the model's order, through the page door.
    payable = await getPayable(params.id, user.id);
    const outcome = await payBet({
      betId: payable.betId,
      userId: user.id,
      by: {
        kind: "form",
        fields: form,
        origin: publicOrigin(request),
      },
    });
    if (outcome.kind === "redirect") return redirect(outcome.url);
  } catch (error) {
    return checkoutFailure(error);
  }
  const { bet } = payable;
  const language = pageLanguage(request, user.language);
  const t = serverT(language);
  const toast = {
    title: t("checkout.successTitle"),
    description: t("checkout.success", {
      amount: formatMoney(bet.amountCents, bet.currency, language),
      winner: bet.winnerName,
    }),
  };
  // With JavaScript the page celebrates, then moves on after 2 s; without,
  // the server redirects at once (docs/product-rules.md#forms-and-messages).
  if (form.get("js") === "1")
    return data(
      { paid: true as const },
      { headers: { "Set-Cookie": await toastCookieHeader(toast) } },
    );
  return redirectWithToast(href("/my-bets"), toast);
}

/** A refusal in the card form's alert; a bug (a provider unreachable) a 500 in words. */
function checkoutFailure(error: unknown) {
  const failure = pageFailureOr(error, { message: PAYMENT_WENT_WRONG });
  return formReply(
    failure.code === PAYMENTS_UNAVAILABLE_CODE
      ? { ...failure, ...PAYMENTS_UNAVAILABLE_NOTICE }
      : failure,
    paymentFailureTitle(failure.status),
  );
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function Checkout({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { bet, betId, refusal, provider, publishableKey, unavailable } =
    loaderData;
  const navigate = useNavigate();
  const paid = actionData !== undefined && "paid" in actionData;
  const hydrated = useHydrated();
  const t = useT();
  const language = useLanguage();
  useEffect(() => {
    if (!paid) return;
    const timer = setTimeout(
      () => navigate(href("/my-bets")),
      REDIRECT_AFTER_PAYMENT_MS,
    );
    return () => clearTimeout(timer);
  }, [paid, navigate]);

  if (paid) {
    return (
      <>
        <Confetti />
        <NoticeCard
          title={t("checkout.successTitle")}
          message={t("checkout.takingYou")}
        >
          <Link to={href("/my-bets")} className="btn-primary">
            {t("nav.myBets")}
          </Link>
        </NoticeCard>
      </>
    );
  }
  if (!bet || bet.paid) {
    return (
      <NoticeCard
        title={t("checkout.initFailed")}
        message={refusal ?? undefined}
      >
        <BackToBet betId={betId} />
      </NoticeCard>
    );
  }
  const failure = actionData && "ok" in actionData ? actionData : null;
  return (
    <div className="space-y-4">
      <section className="card" aria-labelledby="checkout-heading">
        <h1 id="checkout-heading" className="text-xl font-bold">
          {t("checkout.heading")}
        </h1>
        <p className="text-sm text-slate-600">
          {t("checkout.youPay", {
            title: bet.title,
            winner: bet.winnerName,
            amount: formatMoney(bet.amountCents, bet.currency, language),
          })}
        </p>
      </section>
      <FormAlert title={failure?.title} message={failure?.message} />
      {provider === "demo" ? (
        <DemoCardForm
          amountCents={bet.amountCents}
          currency={bet.currency}
          fieldErrors={failure?.fieldErrors}
        />
      ) : provider === "stripe" && publishableKey ? (
        hydrated ? (
          <Suspense fallback={<p>{t("checkout.loading")}</p>}>
            <StripePayment
              publishableKey={publishableKey}
              betId={betId}
              amountCents={bet.amountCents}
              currency={bet.currency}
            />
          </Suspense>
        ) : (
          <KeyedForm
            method="post"
            className="card"
            aria-label={t("checkout.cardPayment")}
          >
            <input type="hidden" name="intent" value="stripe-checkout" />
            <button type="submit" className="btn-primary w-full">
              {t("checkout.pay", {
                amount: formatMoney(bet.amountCents, bet.currency, language),
              })}
            </button>
          </KeyedForm>
        )
      ) : (
        <FormAlert title={unavailable.title} message={unavailable.message} />
      )}
      <Link
        to={href("/payment/:id", { id: String(betId) })}
        className="btn-secondary"
      >
        {t("checkout.back")}
      </Link>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("checkout.pageTitle") },
];
