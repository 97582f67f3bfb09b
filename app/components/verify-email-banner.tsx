import { useLocation, href } from "react-router";
import { KeyedForm } from "~/components/keyed-form";
import { useT } from "~/components/i18n";

// docs/product-rules.md#accounts: until the address is confirmed, no notification mail goes out;
// the banner says so and offers a new link (a plain form: no JavaScript needed).
export function VerifyEmailBanner() {
  const location = useLocation();
  const t = useT();
  return (
    <KeyedForm
      method="post"
      action={href("/verify-email")}
      className="mb-4 flex flex-wrap items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p className="flex-1">{t("verifyBanner.text")}</p>
      <input
        type="hidden"
        name="return_to"
        value={location.pathname + location.search}
      />
      <button
        type="submit"
        name="intent"
        value="resend"
        className="btn-secondary"
      >
        {t("verifyBanner.resend")}
      </button>
    </KeyedForm>
  );
}
