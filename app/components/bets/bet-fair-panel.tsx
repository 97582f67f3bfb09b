// The "fair to the end" parts of /bet/{id} (docs/product-rules.md#void, #referee, #getting-paid): a called-off
// bet, the payment's due date, a dispute with the referee, and the two
// forms (ask the referee, nudge to pay) that work without JavaScript.
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
  return (
    <>
      {data.voided ? (
        <section className="card">
          <h2 className="font-semibold">Called off</h2>
          <p className="text-sm text-slate-700">
            No winner and no payment; nobody&apos;s record changed.
          </p>
        </section>
      ) : null}
      {data.payment ? (
        <p
          role="status"
          className={`card text-sm ${data.payment.overdue ? "border-red-300 bg-red-50" : ""}`}
        >
          {data.payment.overdue
            ? `Payment overdue: it was due ${data.payment.dueLabel}.`
            : `Payment due by ${data.payment.dueLabel}.`}
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
  if (!referee?.referredAt || status !== "active") return null;
  return (
    <section className="card space-y-2" aria-label="Dispute">
      <p className="text-sm">
        With the referee ({referee.name}) since {referee.referredAt}. You can
        still agree between yourselves meanwhile.
      </p>
      {referee.isMe ? (
        <Link
          to={href("/bet/:id/rule", { id: String(betId) })}
          className="btn-primary"
        >
          Rule on this bet
        </Link>
      ) : null}
    </section>
  );
}

export function FairActions({ data }: { data: FairData }) {
  return (
    <>
      {data.canRefer ? (
        <KeyedForm method="post" aria-label="Ask the referee">
          <input type="hidden" name="intent" value="refer" />
          <p className="mb-2 text-sm text-slate-700">
            Can&apos;t agree? {data.referee?.name} can decide.
          </p>
          <button type="submit" className="btn-secondary w-full">
            Ask the referee
          </button>
        </KeyedForm>
      ) : null}
      {data.nudge ? (
        data.nudge.can ? (
          <KeyedForm method="post" aria-label="Nudge">
            <input type="hidden" name="intent" value="nudge" />
            <button type="submit" className="btn-secondary w-full">
              Nudge to pay
            </button>
          </KeyedForm>
        ) : (
          <p className="text-sm text-slate-600">{data.nudge.message}</p>
        )
      ) : null}
    </>
  );
}
