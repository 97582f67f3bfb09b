import { useNavigation } from "react-router";
import { KeyedForm } from "~/components/keyed-form";
import { Field } from "~/components/forms";
import { formatMoney, type Currency } from "~/domain/currency";
import { useHydrated } from "~/components/use-hydrated";

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
  return (
    <KeyedForm
      method="post"
      className="card space-y-4"
      aria-label="Card payment"
      autoComplete="off"
    >
      <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        Demo — no real charges. Use the test card 4242 4242 4242 4242, any
        future expiry and any CVC.
      </p>
      {/* Present only when JavaScript runs: the server then answers with data for the confetti. */}
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <Field
        label="Card number"
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
          label="Expiry"
          errors={fieldErrors?.expiry}
          hint="MM/YY"
          inputProps={{
            name: "expiry",
            autoComplete: "off",
            placeholder: "MM/YY",
            required: true,
            maxLength: 7,
          }}
        />
        <Field
          label="CVC"
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
        {busy ? "Processing..." : `Pay ${formatMoney(amountCents, currency)}`}
      </button>
    </KeyedForm>
  );
}
