import { KeyedForm } from "~/components/keyed-form";
import { SettlementBlocked } from "./money-summary";
import { SettlementFormCard } from "./settlement-form-card";
import { WinnerFieldset } from "./winner-fieldset";

/** What the propose and settle-bet loaders give (settleFormLoader). */
export type WinnerChoiceView = {
  viewerId: number;
  bet: {
    id: number;
    title: string;
    amountCents: number;
    people: { id: number; username: string; role: string }[];
  };
  /** The page's policy refusal, shown instead of the form. */
  blocked: string | null;
  /** A proposal is open: the refusal links to it. */
  live: boolean;
};

/**
 * The two winner-choosing screens (/propose-settlement and /settle-bet):
 * the policy's refusal, or the card with the winner radios, the page's own
 * fields and buttons (`children`) after them.
 */
export function WinnerChoice({
  view: { bet, blocked, live, viewerId },
  failure,
  title,
  headingId,
  intro,
  formLabel,
  children,
}: {
  view: WinnerChoiceView;
  failure?: {
    title?: string;
    message?: string;
    fieldErrors?: Record<string, string[]>;
  } | null;
  title: string;
  headingId: string;
  intro: string;
  formLabel: string;
  children: React.ReactNode;
}) {
  if (blocked) {
    return (
      <SettlementBlocked
        title={title}
        message={blocked}
        betId={bet.id}
        live={live}
      />
    );
  }
  return (
    <SettlementFormCard
      id={headingId}
      title={title}
      bet={bet}
      intro={intro}
      failure={failure}
    >
      <KeyedForm method="post" className="space-y-4" aria-label={formLabel}>
        <WinnerFieldset
          people={bet.people}
          viewerId={viewerId}
          errors={failure?.fieldErrors?.winnerId}
        />
        {children}
      </KeyedForm>
    </SettlementFormCard>
  );
}
