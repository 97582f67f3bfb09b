// The Finances view, shared by /financial-history and /notifications?tab=finances
// (feed it loadFinances(request, user) from app/routes/payments/finances.server.ts).
// Everything is links and GET forms: it works without JavaScript.
import { Form, Link } from "react-router";
import { ErrorList } from "~/components/forms";
import { formatMoney, minorToSignedString } from "~/domain/currency";
import { PRESETS } from "~/domain/finance-presets";
import type { Finances } from "~/domain/finances";

const STATUS_TONE: Record<string, string> = {
  completed: "bg-brand-100 text-brand-800",
  pending: "bg-amber-100 text-amber-800",
};
const FAILED_TONE = "bg-red-100 text-red-800";
const COLUMNS = ["Date", "Type", "Description", "Amount", "Currency", "Status"];

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
      <nav aria-label="Date range presets" className="flex flex-wrap gap-2">
        {PRESETS.map((p) => (
          <Link
            key={p.id}
            to={href({ preset: p.id })}
            aria-current={range.preset === p.id ? "page" : undefined}
            className="btn-secondary aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-50"
            preventScrollReset
          >
            {p.label}
          </Link>
        ))}
      </nav>
      <Form
        method="get"
        action={path}
        className="card grid grid-cols-2 items-end gap-3"
        aria-label="Date range"
      >
        {hidden}
        <RangeDay
          id="fin-start"
          label="Start date"
          name="startDate"
          value={range.start}
          max={today}
          errors={fieldErrors.startDate}
        />
        <RangeDay
          id="fin-end"
          label="End date"
          name="endDate"
          value={range.end}
          max={today}
          errors={fieldErrors.endDate}
        />
        <button type="submit" className="btn-primary col-span-2">
          Apply
        </button>
      </Form>

      {!finances.ok ? (
        <div role="alert" className="card space-y-2 border-red-200 bg-red-50">
          <p className="font-semibold text-red-800">
            {badRange ? "Invalid date range" : "Error loading financial data"}
          </p>
          <p className="text-sm text-red-800">{finances.error}</p>
          <Link to={href({})} className="btn-secondary">
            Try Again
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
              ? `Summary in ${s.currency}`
              : "Summary"
          }
          className="grid grid-cols-2 gap-3"
        >
          {finances.summaries.length > 1 ? (
            <h2 className="col-span-2 font-semibold">{s.currency}</h2>
          ) : null}
          <SummaryCard
            label="Winnings"
            value={formatMoney(s.winningsCents, s.currency)}
          />
          <SummaryCard
            label="Losses"
            value={formatMoney(s.lossesCents, s.currency)}
          />
          <SummaryCard
            label="Platform Fees"
            value={formatMoney(s.feesCents, s.currency)}
          />
          <SummaryCard
            label="Net Profit"
            value={`${s.netProfitCents < 0 ? "-" : ""}${formatMoney(Math.abs(s.netProfitCents), s.currency)}`}
            note={`Win rate ${s.winRate}%`}
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
          Refresh Data
        </Link>
        <a href={finances.csvHref} className="btn-secondary" download>
          Export CSV
        </a>
        <p role="status" className="text-sm text-brand-700">
          {refreshed ? "Refreshed" : ""}
        </p>
      </div>

      <section
        className="card overflow-x-auto p-0"
        aria-labelledby="tx-heading"
      >
        <h2 id="tx-heading" className="px-4 pt-4 font-semibold">
          Transactions
        </h2>
        <p className="px-4 text-xs text-slate-600">
          {range.start} to {range.end}. Transactions may take up to 24 hours to
          appear.
        </p>
        {rows.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">
            No transactions in this period.
          </p>
        ) : (
          <table className="mt-2 w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                {COLUMNS.map((c) => (
                  <th
                    key={c}
                    scope="col"
                    className={`px-3 py-2${c === "Amount" ? " text-right" : ""}`}
                  >
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((r) => (
                <tr key={r.id}>
                  <td className="whitespace-nowrap px-3 py-2">{r.date}</td>
                  <td className="px-3 py-2 capitalize">{r.type}</td>
                  <td className="px-3 py-2">{r.description}</td>
                  <td
                    className={`whitespace-nowrap px-3 py-2 text-right font-medium ${r.amountCents < 0 ? "text-red-700" : "text-brand-700"}`}
                  >
                    {minorToSignedString(r.amountCents, r.currency)}
                  </td>
                  <td className="px-3 py-2">{r.currency}</td>
                  <td className="px-3 py-2">
                    <span
                      className={`badge ${STATUS_TONE[r.status] ?? FAILED_TONE}`}
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
