// The Finances view, shared by /financial-history and /notifications?tab=finances
// (feed it loadFinances(request, user) from app/routes/payments/finances.server.ts).
// Everything is links and GET forms: it works without JavaScript.
import { Form, Link } from "react-router";
import { ErrorList } from "~/components/forms";
import { formatMoney, minorToSignedString } from "~/domain/currency";
import { PRESETS } from "~/domain/finance-presets";
import type { Finances } from "~/domain/finances";
import { useLanguage, useT } from "~/components/i18n";

const STATUS_TONE: Record<string, string> = {
  completed: "bg-brand-100 text-brand-800",
  pending: "bg-amber-100 text-amber-800",
};
const FAILED_TONE = "bg-red-100 text-red-800";
const COLUMNS = [
  "finances.date",
  "finances.type",
  "finances.description",
  "finances.amount",
  "finances.currency",
  "finances.status",
] as const;

export function FinancePanel({
  finances,
  path,
  keep = {},
  refreshed = false,
}: {
  finances: Finances;
  /** The page's own path, e.g. "/financial-history" or "/notifications". */
  path: string;
  /** Search params to keep on every link and form (e.g. {tab: "finances"}). */
  keep?: Record<string, string>;
  /** Set when the URL carries ?refreshed=1: shows the 'Refreshed' message. */
  refreshed?: boolean;
}) {
  const { range, summary, rows, today, fieldErrors } = finances;
  const t = useT();
  const language = useLanguage();
  const money = (minor: number, currency: Finances["currency"]) =>
    formatMoney(minor, currency, language);
  const href = (params: Record<string, string>) =>
    `${path}?${new URLSearchParams({ ...keep, ...params })}`;
  const current: Record<string, string> = range.preset
    ? { preset: range.preset }
    : { startDate: range.start, endDate: range.end };
  const hidden = Object.entries(keep).map(([k, v]) => (
    <input key={k} type="hidden" name={k} value={v} />
  ));
  const badRange = !finances.ok && Object.keys(fieldErrors).length > 0;

  return (
    <div className="space-y-4">
      <nav aria-label={t("finances.presets")} className="flex flex-wrap gap-2">
        {PRESETS.map((p) => (
          <Link
            key={p.id}
            to={href({ preset: p.id })}
            aria-current={range.preset === p.id ? "page" : undefined}
            className="btn-secondary aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-50"
            preventScrollReset
          >
            {t(p.label)}
          </Link>
        ))}
      </nav>
      <Form
        method="get"
        action={path}
        className="card grid grid-cols-2 items-end gap-3"
        aria-label={t("finances.range")}
      >
        {hidden}
        <RangeDay
          id="fin-start"
          label={t("finances.startDate")}
          name="startDate"
          value={range.start}
          max={today}
          errors={fieldErrors.startDate}
        />
        <RangeDay
          id="fin-end"
          label={t("finances.endDate")}
          name="endDate"
          value={range.end}
          max={today}
          errors={fieldErrors.endDate}
        />
        <button type="submit" className="btn-primary col-span-2">
          {t("finances.apply")}
        </button>
      </Form>

      {!finances.ok ? (
        <div role="alert" className="card space-y-2 border-red-200 bg-red-50">
          <p className="font-semibold text-red-800">
            {badRange ? t("finances.badRange") : t("finances.loadError")}
          </p>
          <p className="text-sm text-red-800">{finances.error}</p>
          <Link to={href({})} className="btn-secondary">
            {t("finances.tryAgain")}
          </Link>
        </div>
      ) : null}

      {/* One summary per currency: money of two currencies is never added. */}
      {(finances.summaries.length
        ? finances.summaries
        : [{ ...summary, currency: finances.currency }]
      ).map((s) => (
        <section
          key={s.currency}
          aria-label={
            finances.summaries.length > 1
              ? t("finances.summaryIn", { currency: s.currency })
              : t("finances.summary")
          }
          className="grid grid-cols-2 gap-3"
        >
          {finances.summaries.length > 1 ? (
            <h2 className="col-span-2 font-semibold">{s.currency}</h2>
          ) : null}
          <SummaryCard
            label={t("finances.winnings")}
            value={money(s.winningsCents, s.currency)}
          />
          <SummaryCard
            label={t("finances.losses")}
            value={money(s.lossesCents, s.currency)}
          />
          <SummaryCard
            label={t("finances.fees")}
            value={money(s.feesCents, s.currency)}
          />
          <SummaryCard
            label={t("finances.net")}
            value={`${s.netProfitCents < 0 ? "-" : ""}${money(Math.abs(s.netProfitCents), s.currency)}`}
            note={t("finances.winRate", { rate: s.winRate })}
          />
        </section>
      ))}

      <div className="flex flex-wrap items-center gap-2">
        <Link
          to={href({ ...current, refreshed: "1" })}
          className="btn-secondary"
          preventScrollReset
          replace
        >
          {t("finances.refresh")}
        </Link>
        <a href={finances.csvHref} className="btn-secondary" download>
          {t("finances.csv")}
        </a>
        <p role="status" className="text-sm text-brand-700">
          {refreshed ? t("finances.refreshed") : ""}
        </p>
      </div>

      <section
        className="card overflow-x-auto p-0"
        aria-labelledby="tx-heading"
      >
        <h2 id="tx-heading" className="px-4 pt-4 font-semibold">
          {t("finances.transactions")}
        </h2>
        <p className="px-4 text-xs text-slate-600">
          {t("finances.rangeNote", { start: range.start, end: range.end })}
        </p>
        {rows.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">{t("finances.none")}</p>
        ) : (
          <table className="mt-2 w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                {COLUMNS.map((c) => (
                  <th
                    key={c}
                    scope="col"
                    className={`px-3 py-2${c === "finances.amount" ? " text-right" : ""}`}
                  >
                    {t(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((r) => (
                <tr key={r.id}>
                  <td className="whitespace-nowrap px-3 py-2">{r.date}</td>
                  <td className="px-3 py-2">{r.type}</td>
                  <td className="px-3 py-2">{r.description}</td>
                  <td
                    className={`whitespace-nowrap px-3 py-2 text-right font-medium ${r.amountCents < 0 ? "text-red-700" : "text-brand-700"}`}
                  >
                    {minorToSignedString(r.amountCents, r.currency)}
                  </td>
                  <td className="px-3 py-2">{r.currency}</td>
                  <td className="px-3 py-2">
                    <span
                      className={`badge ${STATUS_TONE[r.tone] ?? FAILED_TONE}`}
                    >
                      {r.status}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

/** One end of the range: a native date input, no later than today. */
function RangeDay({
  id,
  label,
  name,
  value,
  max,
  errors,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  max: string;
  errors?: string[];
}) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        id={id}
        type="date"
        name={name}
        className="input"
        defaultValue={value}
        max={max}
        required
        aria-invalid={errors ? true : undefined}
      />
      <ErrorList errors={errors} />
    </div>
  );
}

function SummaryCard({
  label,
  value,
  note,
}: {
  label: string;
  value: string;
  note?: string;
}) {
  return (
    <div className="card">
      <h3 className="text-xs font-medium text-slate-600">{label}</h3>
      <p className="text-lg font-bold">{value}</p>
      {note ? <p className="text-xs text-slate-600">{note}</p> : null}
    </div>
  );
}
