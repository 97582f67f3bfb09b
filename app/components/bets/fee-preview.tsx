import { Link, href } from "react-router";
import { readAmount } from "~/domain/amount-reader";
import {
  formatMoney,
  splitMinor,
  unitsToMinor,
  type Currency,
} from "~/domain/currency";
import type { Language } from "~/domain/language";
import { Tooltip } from "./tooltip";
import { useT } from "../i18n";

/** docs/product-rules.md#screens: what the winner receives, by the shared fee function (docs/product-rules.md#paying). */
export function FeePreview({
  amount,
  currency,
  language = "en",
}: {
  /** As typed: read the way the server will read it, or 0 while it cannot be. */
  amount: string;
  currency: Currency;
  language?: Language;
}) {
  const reading = readAmount(amount, language);
  const cents = reading.ok ? unitsToMinor(reading.units, currency) : 0;
  const { feeMinor: feeCents, netMinor: netCents } = splitMinor(cents);
  const money = (minor: number) => formatMoney(minor, currency, language);
  const t = useT();
  return (
    <div
      className="mt-2 rounded-lg bg-slate-50 p-3 text-sm"
      aria-live="polite"
      data-testid="fee-preview"
    >
      <p className="flex items-center gap-1 font-medium text-slate-800">
        {t("fee.ifYouWin")}
        <Tooltip label={t("fee.about")} content={t("fee.explained")}>
          <span
            aria-hidden="true"
            className="inline-flex size-5 items-center justify-center rounded-full border border-slate-400 text-xs"
          >
            ?
          </span>
        </Tooltip>
      </p>
      <dl className="mt-1 grid grid-cols-2 gap-y-1">
        <dt className="text-slate-600">{t("fee.betAmount")}</dt>
        <dd className="text-right">{money(cents)}</dd>
        <dt className="text-slate-600">{t("fee.platformFee")}</dt>
        <dd className="text-right text-red-700">-{money(feeCents)}</dd>
        <dt className="font-semibold">{t("fee.youReceive")}</dt>
        <dd className="text-right font-semibold">{money(netCents)}</dd>
      </dl>
      <p className="mt-1 text-xs text-slate-600">
        {t("fee.explained")}{" "}
        <Link
          to={href("/help/fees")}
          className="font-medium text-brand-700 underline"
        >
          {t("fee.learnMore")}
        </Link>
      </p>
    </div>
  );
}
