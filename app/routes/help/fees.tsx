import { Form, Link, href } from "react-router";
import { PublicPage } from "~/components/page-frames";
import type { Route } from "./+types/fees";
import { LinkTabs } from "~/components/ui/link-tabs";
import { metaT, useLanguage, useT, type MessageKey } from "~/components/i18n";
import { amountMarks, readAmount } from "~/domain/amount-reader";
import {
  CURRENCIES,
  CURRENCY_TABLE,
  PLATFORM_FEE_BPS,
  formatMoney,
  guessCurrency,
  parseCurrency,
  splitMinor,
  unitsToMinor,
  type Currency,
} from "~/domain/currency";
import { intlLocale, type Language } from "~/domain/language";

// Public and JavaScript-free: the calculator is a GET form computed on the
// server, in any bet currency, the amount read the page's language's way
// (docs/product-rules.md#amounts-typed-the-local-way).
export const handle = { messages: ["header", "feeHelp"], hydrate: false };

const TABS = ["overview", "calculator", "faq"] as const;
type Tab = (typeof TABS)[number];

/** Three amounts to try, in whole units: the currency's usual sizes of bet. */
function presetsOf(currency: Currency): number[] {
  const { min } = CURRENCY_TABLE[currency];
  const step = min >= 100 ? 100 : min >= 10 ? 10 : 1;
  return [50, 100, 500].map((n) => n * step);
}

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const tab: Tab = (TABS as readonly string[]).includes(params.get("tab") ?? "")
    ? (params.get("tab") as Tab)
    : "overview";
  return {
    tab,
    // As typed; read in the page's language where the page is drawn.
    input: params.get("amount"),
    currency: parseCurrency(params.get("currency")),
  };
}

/** The calculator's reading of the form: the split, or what is wrong. */
function calculate(
  input: string,
  currency: Currency,
  language: Language,
):
  | { ok: true; amount: number; fee: number; net: number }
  | { ok: false; error: MessageKey; values?: Record<string, string> } {
  const reading = readAmount(input, language);
  if (!reading.ok) {
    if (reading.reason === "ambiguous")
      return {
        ok: false,
        error: "feeHelp.ambiguous",
        values: { example: `1${amountMarks(language).group}000` },
      };
    if (reading.reason === "decimal")
      return { ok: false, error: "feeHelp.whole" };
    return { ok: false, error: "feeHelp.invalid" };
  }
  const { min, max } = CURRENCY_TABLE[currency];
  if (reading.units < min || reading.units > max) {
    const whole = (units: number) =>
      formatMoney(unitsToMinor(units, currency), currency, language, {
        whole: true,
      });
    return {
      ok: false,
      error: "feeHelp.limits",
      values: { min: whole(min), max: whole(max) },
    };
  }
  const amount = unitsToMinor(reading.units, currency);
  const { feeMinor, netMinor } = splitMinor(amount);
  return { ok: true, amount, fee: feeMinor, net: netMinor };
}

export default function FeesHelp({ loaderData }: Route.ComponentProps) {
  const { tab } = loaderData;
  const t = useT();
  const language = useLanguage();
  const currency = loaderData.currency ?? guessCurrency(language);
  return (
    <PublicPage width="xl">
      <h1 className="mb-4 text-2xl font-bold">{t("feeHelp.heading")}</h1>
      <LinkTabs
        label={t("feeHelp.sections")}
        current={tab}
        tabs={[
          {
            id: "overview",
            label: t("feeHelp.overviewTab"),
            to: href("/help/fees"),
          },
          {
            id: "calculator",
            label: t("feeHelp.calculatorTab"),
            to: `${href("/help/fees")}?tab=calculator`,
          },
          {
            id: "faq",
            label: t("feeHelp.faqTab"),
            to: `${href("/help/fees")}?tab=faq`,
          },
        ]}
      />
      <section className="card mt-4">
        {tab === "overview" ? <Overview currency={currency} /> : null}
        {tab === "calculator" ? (
          <Calculator input={loaderData.input} currency={currency} />
        ) : null}
        {tab === "faq" ? <Faq /> : null}
      </section>
    </PublicPage>
  );
}

const percent = (language: Language) =>
  new Intl.NumberFormat(intlLocale(language), {
    style: "percent",
    maximumFractionDigits: 1,
  }).format(PLATFORM_FEE_BPS / 10_000);

function Overview({ currency }: { currency: Currency }) {
  const t = useT();
  const language = useLanguage();
  const amount = unitsToMinor(presetsOf(currency)[1]!, currency);
  const { feeMinor, netMinor } = splitMinor(amount);
  const money = (minor: number) => formatMoney(minor, currency, language);
  const rate = percent(language);
  return (
    <div className="space-y-3 text-slate-800">
      <h2 className="text-lg font-semibold">
        {t("feeHelp.overviewHeading", { rate })}
      </h2>
      <p>{t("feeHelp.overviewText", { rate })}</p>
      <p>
        {t("feeHelp.example", {
          amount: formatMoney(amount, currency, language, { whole: true }),
          fee: money(feeMinor),
          net: money(netMinor),
        })}
      </p>
      <p>{t("feeHelp.rounding")}</p>
    </div>
  );
}

function Calculator({
  input,
  currency,
}: {
  input: string | null;
  currency: Currency;
}) {
  const t = useT();
  const language = useLanguage();
  const presets = presetsOf(currency);
  const typed = input ?? String(presets[1]);
  const result = calculate(typed, currency, language);
  const money = (minor: number) => formatMoney(minor, currency, language);
  return (
    <div className="space-y-4">
      <Form method="get" className="space-y-3">
        <input type="hidden" name="tab" value="calculator" />
        <div className="grid grid-cols-3 gap-2">
          <div className="col-span-2">
            <label htmlFor="fee-amount" className="label">
              {t("feeHelp.amount")}
            </label>
            <input
              id="fee-amount"
              name="amount"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={typed}
              className="input"
              aria-invalid={result.ok ? undefined : true}
              aria-describedby={result.ok ? undefined : "fee-amount-error"}
            />
          </div>
          <div>
            <label htmlFor="fee-currency" className="label">
              {t("feeHelp.currency")}
            </label>
            <select
              id="fee-currency"
              name="currency"
              className="input"
              defaultValue={currency}
            >
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
        {result.ok ? null : (
          <p id="fee-amount-error" className="field-error">
            {t(result.error, result.values)}
          </p>
        )}
        <button type="submit" className="btn-primary w-full">
          {t("feeHelp.calculate")}
        </button>
      </Form>
      <div className="flex gap-2" aria-label={t("feeHelp.presets")}>
        {presets.map((p) => (
          <Link
            key={p}
            to={`${href("/help/fees")}?${new URLSearchParams({ tab: "calculator", amount: String(p), currency })}`}
            className="btn-secondary flex-1"
          >
            {formatMoney(unitsToMinor(p, currency), currency, language, {
              whole: true,
            })}
          </Link>
        ))}
      </div>
      {result.ok ? (
        <dl
          className="grid grid-cols-2 gap-2 text-sm"
          aria-label={t("feeHelp.breakdown")}
        >
          <dt>{t("feeHelp.betAmount")}</dt>
          <dd className="text-right font-semibold">{money(result.amount)}</dd>
          <dt>{t("feeHelp.fee", { rate: percent(language) })}</dt>
          <dd className="text-right font-semibold">{`-${money(result.fee)}`}</dd>
          <dt>{t("feeHelp.winnerReceives")}</dt>
          <dd className="text-right font-semibold text-brand-700">
            {money(result.net)}
          </dd>
          <dt>{t("feeHelp.loserPays")}</dt>
          <dd className="text-right font-semibold">{money(result.amount)}</dd>
        </dl>
      ) : null}
    </div>
  );
}

const FAQ: readonly (readonly [MessageKey, MessageKey])[] = [
  ["feeHelp.whoPaysQ", "feeHelp.whoPaysA"],
  ["feeHelp.createQ", "feeHelp.createA"],
  ["feeHelp.cancelledQ", "feeHelp.cancelledA"],
  ["feeHelp.otherQ", "feeHelp.otherA"],
];

function Faq() {
  const t = useT();
  const rate = percent(useLanguage());
  return (
    <div className="space-y-4">
      {FAQ.map(([q, a]) => (
        <div key={q}>
          <h2 className="font-semibold">{t(q)}</h2>
          <p className="text-slate-700">{t(a, { rate })}</p>
        </div>
      ))}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("feeHelp.pageTitle") },
];
