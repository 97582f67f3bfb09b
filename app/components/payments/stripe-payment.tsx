// The Stripe Payment Element, loaded only on the checkout page and only
// when Stripe keys are set (docs/architecture.md#stack: @stripe/stripe-js/pure). The intent
// is created when the person pays (POST /api/create-payment-intent, with
// the server's idempotency key), confirmed in the browser with return URL
// /my-bets and no redirect unless the method needs one, then recorded by
// the server only after it has asked Stripe itself.
import { useState } from "react";
import { useSubmit } from "react-router";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import {
  Elements,
  PaymentElement,
  useElements,
  useStripe,
} from "@stripe/react-stripe-js";
import { FormAlert } from "~/components/forms";
import {
  PAYMENT_ERROR_TITLE,
  PAYMENT_FAILED_TITLE,
  PAYMENT_INIT_FAILED_TITLE,
  PAYMENT_WENT_WRONG,
} from "~/domain/payment";
import { formatMoney, type Currency } from "~/domain/currency";
import { useLanguage, useT } from "~/components/i18n";

let stripePromise: Promise<Stripe | null> | null = null;

export default function StripePayment({
  publishableKey,
  betId,
  amountCents,
  currency = "USD",
}: {
  publishableKey: string;
  betId: number;
  /** In the bet's currency's smallest unit, as Stripe counts it. */
  amountCents: number;
  currency?: Currency;
}) {
  stripePromise ??= loadStripe(publishableKey);
  return (
    <Elements
      stripe={stripePromise}
      options={{
        mode: "payment",
        amount: amountCents,
        currency: currency.toLowerCase(),
      }}
    >
      <PayWithElement
        betId={betId}
        amountCents={amountCents}
        currency={currency}
      />
    </Elements>
  );
}

function PayWithElement({
  betId,
  amountCents,
  currency,
}: {
  betId: number;
  amountCents: number;
  currency: Currency;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const submit = useSubmit();
  const [error, setError] = useState<{ title: string; message: string }>();
  const [busy, setBusy] = useState(false);
  const t = useT();
  const language = useLanguage();

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    setError(undefined);
    try {
      const checked = await elements.submit();
      if (checked.error)
        throw { title: PAYMENT_FAILED_TITLE, message: checked.error.message };
      const res = await fetch("/api/create-payment-intent", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
        },
        credentials: "include",
        body: JSON.stringify({ betId }),
      });
      const body = (await res.json()) as {
        clientSecret?: string;
        error?: string;
      };
      if (!res.ok || !body.clientSecret)
        throw {
          title: PAYMENT_INIT_FAILED_TITLE,
          message: body.error ?? "",
        };
      const result = await stripe.confirmPayment({
        elements,
        clientSecret: body.clientSecret,
        confirmParams: { return_url: `${window.location.origin}/my-bets` },
        redirect: "if_required",
      });
      if (result.error)
        throw {
          title: PAYMENT_FAILED_TITLE,
          message: result.error.message ?? "",
        };
      submit(
        {
          intent: "stripe-record",
          paymentIntentId: result.paymentIntent.id,
          js: "1",
        },
        { method: "post" },
      );
    } catch (e) {
      const known = e as { title?: string; message?: string };
      setError({
        title: known.title ?? PAYMENT_ERROR_TITLE,
        message: known.message || PAYMENT_WENT_WRONG,
      });
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={pay}
      className="card space-y-4"
      aria-label={t("checkout.cardPayment")}
    >
      <PaymentElement />
      <FormAlert title={error?.title} message={error?.message} />
      <button
        type="submit"
        className="btn-primary w-full"
        disabled={!stripe || busy}
      >
        {busy
          ? t("checkout.processing")
          : t("checkout.pay", {
              amount: formatMoney(amountCents, currency, language),
            })}
      </button>
    </form>
  );
}
