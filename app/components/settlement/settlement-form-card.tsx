import { useLanguage } from "~/components/i18n";
import { FormAlert } from "~/components/forms";
import { formatMoney, type Currency } from "~/domain/currency";

/**
 * The frame of the two winner-choosing screens (/propose-settlement and
 * /settle-bet): heading, the bet's terms, what submitting will do, the
 * refusal if the last try was refused, then the form.
 */
export function SettlementFormCard({
  id,
  title,
  bet,
  intro,
  failure,
  children,
}: {
  id: string;
  title: string;
  bet: { title: string; amountCents: number; currency?: Currency };
  intro: React.ReactNode;
  failure?: { title?: string; message?: string } | null;
  children: React.ReactNode;
}) {
  const language = useLanguage();
  return (
    <section className="card space-y-4" aria-labelledby={id}>
      <div>
        <h1 id={id} className="text-xl font-bold">
          {title}
        </h1>
        <p className="text-sm text-slate-600">
          {bet.title} ·{" "}
          {formatMoney(bet.amountCents, bet.currency ?? "USD", language)}
        </p>
      </div>
      <p className="text-sm text-slate-700">{intro}</p>
      <FormAlert title={failure?.title} message={failure?.message} />
      {children}
    </section>
  );
}
