// The "fair to the end" parts of /bet/{id} (docs/product-rules.md#void, #referee, #getting-paid): a called-off
// bet, the payment's due date, a dispute with the referee, and the two
// forms (ask the referee, nudge to pay) that work without JavaScript.
import { useT } from "~/components/i18n";
import { Link, href } from "react-router";
import { KeyedForm } from "~/components/keyed-form";

type Referee = {
  name: string | null;
  isMe: boolean;
  referredAt: string | null;
} | null;

export type FairData = {
  voided: boolean;
  payment: { dueLabel: string; overdue: boolean } | null;
  referee: Referee;
  canRefer: boolean;
  nudge: { can: boolean; message: string | null } | null;
};

export function BetOutcomeNotices({ data }: { data: FairData }) {
  const t = useT();
  return (
    <>
      {data.voided ? (
        <section className="card">
          <h2 className="font-semibold">{t("fair.calledOff")}</h2>
          <p className="text-sm text-slate-700">{t("fair.calledOffText")}</p>
        </section>
      ) : null}
      {data.payment ? (
        <p
          role="status"
          className={`card text-sm ${data.payment.overdue ? "border-red-300 bg-red-50" : ""}`}
        >
          {data.payment.overdue
            ? t("fair.overdue", { when: data.payment.dueLabel })
            : t("fair.due", { when: data.payment.dueLabel })}
        </p>
      ) : null}
    </>
  );
}

export function DisputeNotice({
  betId,
  status,
  referee,
}: {
  betId: number;
  status: string;
  referee: Referee;
}) {
  const t = useT();
  if (!referee?.referredAt || status !== "active") return null;
  return (
    <section className="card space-y-2" aria-label={t("fair.dispute")}>
      <p className="text-sm">
        {t("fair.withReferee", {
          name: referee.name ?? "",
          when: referee.referredAt,
        })}
      </p>
      {referee.isMe ? (
        <Link
          to={href("/bet/:id/rule", { id: String(betId) })}
          className="btn-primary"
        >
          {t("fair.rule")}
        </Link>
      ) : null}
    </section>
  );
}

export function FairActions({ data }: { data: FairData }) {
  const t = useT();
  return (
    <>
      {data.canRefer ? (
        <KeyedForm method="post" aria-label={t("fair.askReferee")}>
          <input type="hidden" name="intent" value="refer" />
          <p className="mb-2 text-sm text-slate-700">
            {t("fair.cantAgree", { name: data.referee?.name ?? "" })}
          </p>
          <button type="submit" className="btn-secondary w-full">
            {t("fair.askReferee")}
          </button>
        </KeyedForm>
      ) : null}
      {data.nudge ? (
        data.nudge.can ? (
          <KeyedForm method="post" aria-label={t("fair.nudge")}>
            <input type="hidden" name="intent" value="nudge" />
            <button type="submit" className="btn-secondary w-full">
              {t("fair.nudgeToPay")}
            </button>
          </KeyedForm>
        ) : (
          <p className="text-sm text-slate-600">{data.nudge.message}</p>
        )
      ) : null}
    </>
  );
}
