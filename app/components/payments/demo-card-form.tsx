import { useNavigation } from "react-router";
import { KeyedForm } from "~/components/keyed-form";
import { Field } from "~/components/forms";
import { formatMoney, type Currency } from "~/domain/currency";
import { useHydrated } from "~/components/use-hydrated";
import { useLanguage, useT } from "~/components/i18n";

// docs/product-rules.md#paying: our own card form, test cards only, autocomplete off; it posts
// to its own route and works without JavaScript.
export function DemoCardForm({
  amountCents,
  currency = "USD",
  fieldErrors,
}: {
  amountCents: number;
  currency?: Currency;
  fieldErrors?: Record<string, string[]>;
}) {
  const busy = useNavigation().state === "submitting";
  const hydrated = useHydrated();
  const t = useT();
  const language = useLanguage();
  const amount = formatMoney(amountCents, currency, language);
  return (
    <KeyedForm
      method="post"
      className="card space-y-4"
      aria-label={t("checkout.cardPayment")}
      autoComplete="off"
    >
      <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        {t("checkout.demoNote", { card: "4242 4242 4242 4242" })}
      </p>
      {/* Present only when JavaScript runs: the server then answers with data for the confetti. */}
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <Field
        label={t("checkout.cardNumber")}
        errors={fieldErrors?.cardNumber}
        inputProps={{
          name: "cardNumber",
          inputMode: "numeric",
          autoComplete: "off",
          placeholder: "4242 4242 4242 4242",
          required: true,
          maxLength: 23,
        }}
      />
      <div className="grid grid-cols-2 gap-3">
        <Field
          label={t("checkout.expiry")}
          errors={fieldErrors?.expiry}
          hint={t("checkout.expiryForm")}
          inputProps={{
            name: "expiry",
            autoComplete: "off",
            placeholder: t("checkout.expiryForm"),
            required: true,
            maxLength: 7,
          }}
        />
        <Field
          label={t("checkout.cvc")}
          errors={fieldErrors?.cvc}
          inputProps={{
            name: "cvc",
            inputMode: "numeric",
            autoComplete: "off",
            placeholder: "123",
            required: true,
            maxLength: 4,
          }}
        />
      </div>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? t("checkout.processing") : t("checkout.pay", { amount })}
      </button>
    </KeyedForm>
  );
}
