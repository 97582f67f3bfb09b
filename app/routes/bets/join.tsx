// /join/{code}: served without JavaScript (`handle.hydrate`, docs/product-rules.md#forms-and-messages);
// reached by a link from a hydrated page it runs in the app like any other.
// Opening records access to a private bet (docs/product-rules.md#private-bets);
// the Join form carries the version of the bet it showed, and the join is
// refused if the bet changed since (docs/product-rules.md#joining).
import { Link, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { PublicPage } from "~/components/page-frames";
import { metaT, useLanguage, useT, type MessageKey } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { paymentRecordText } from "~/domain/payment-record-text";
import type { Route } from "./+types/join";
import { StatusBadge } from "~/components/bets/status-badge";
import { FormAlert } from "~/components/forms";
import { openBetByCode } from "~/models/bets/bet-access.server";
import {
  ALREADY_IN,
  BET_FULL,
  JOIN_CANCELLED,
  JOIN_SETTLED,
  joinRefusal,
  REFEREE_CANNOT_JOIN,
} from "~/models/bets/bet-policy.server";
import { joinFromForm } from "./join-action.server";
import { getPaymentRecord } from "~/models/payments/dues.server";
import { page } from "~/framework/page.server";
import { formatMoney } from "~/domain/currency";
import { requireUser } from "~/models/accounts/session.server";
import { readFormData } from "~/framework/form-data.server";
import {
  cardFrame,
  copyFromData,
  GeneralErrorBoundary,
  HomeLink,
} from "~/components/error-boundary";
import { clientAddressContext } from "~/framework/request-context.server";
import type { RouteTraits } from "~/domain/route-traits";

// Opening a bet by its code grants access to a private bet and counts a
// miss against the guess limits: a read that writes. Joining from this
// public page is not kept offline (no JavaScript here).
export const handle: RouteTraits = {
  messages: ["join", "header", "record", "status"],
  hydrate: false,
  writesOnGet: true,
  offline: false,
};

async function open(
  code: string,
  userId: number,
  clientAddress: string,
  t: ReturnType<typeof serverT>,
) {
  return page(async () => openBetByCode({ code, userId, clientAddress }), {
    404: () => ({
      title: t("join.notFoundTitle"),
      message: t("join.notFound"),
    }),
    429: (failure) => ({
      title: t("join.tooManyTitle"),
      message: failure.message,
    }),
  });
}

/** The join page's words for each refusal (docs/product-rules.md#joining). */
const REFUSAL_KEYS = {
  [ALREADY_IN]: "join.alreadyIn",
  [REFEREE_CANNOT_JOIN]: "join.referee",
  [JOIN_CANCELLED]: "join.closed",
  [JOIN_SETTLED]: "join.closed",
  [BET_FULL]: "join.full",
} as const satisfies Record<string, MessageKey>;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const t = serverT(pageLanguage(request, user.language));
  const bet = await open(
    params.code,
    user.id,
    context.get(clientAddressContext),
    t,
  );
  const refusal = joinRefusal(bet, user.id);
  return {
    code: params.code.toUpperCase(),
    bet: {
      id: bet.id,
      title: bet.title,
      description: bet.description,
      amountCents: bet.amountCents,
      currency: bet.currency,
      status: bet.status,
      count: bet.participants.length,
      creatorName: bet.creatorName,
      creatorRecord: paymentRecordText(
        t,
        await getPaymentRecord(bet.creatorId),
      ),
      refereeName: bet.refereeName,
      version: bet.updatedAt.toISOString(),
    },
    /** Why this person may not join, as the page words it; null: the Join form. */
    cannotJoin: refusal
      ? ((refusal.message in REFUSAL_KEYS
          ? t(REFUSAL_KEYS[refusal.message as keyof typeof REFUSAL_KEYS])
          : null) ??
        refusal.shown ??
        refusal.message)
      : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  const t = serverT(pageLanguage(request, user.language));
  return joinFromForm({
    userId: user.id,
    form,
    findBet: async () =>
      (await open(params.code, user.id, context.get(clientAddressContext), t))
        .id,
  });
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <PublicPage width="lg" mainClassName="space-y-4">
      {children}
    </PublicPage>
  );
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function JoinByCode({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { bet, code, cannotJoin } = loaderData;
  const t = useT();
  const language = useLanguage();
  return (
    <Shell>
      <p className="text-sm text-slate-600">
        {t("join.code")}{" "}
        <span className="font-mono text-lg font-bold tracking-widest text-slate-900">
          {code}
        </span>
      </p>
      <section className="card space-y-3" aria-labelledby="join-title">
        <div className="flex items-start justify-between gap-2">
          <h1 id="join-title" className="break-words text-xl font-bold">
            {bet.title}
          </h1>
          <StatusBadge status={bet.status} />
        </div>
        <p className="whitespace-pre-wrap break-words text-slate-700">
          {bet.description}
        </p>
        <p className="text-2xl font-bold">
          {formatMoney(bet.amountCents, bet.currency, language)}
        </p>
        <p className="text-sm text-slate-600">
          {t("join.createdBy", {
            name: bet.creatorName ?? t("join.unknown"),
            count: bet.count,
          })}
        </p>
        <p className="text-sm text-slate-600">
          {t("join.creatorRecord", {
            name: bet.creatorName ?? t("join.theCreator"),
            record: bet.creatorRecord,
          })}
        </p>
        {bet.refereeName ? (
          <p className="text-sm text-slate-700">
            {t("join.refereeLabel")} <strong>{bet.refereeName}</strong>.{" "}
            {t("join.refereeText")}
          </p>
        ) : null}
      </section>
      <FormAlert title={actionData?.title} message={actionData?.message} />
      {cannotJoin ? (
        <p role="status" className="card text-slate-700">
          {cannotJoin}
        </p>
      ) : (
        <KeyedForm method="post">
          <input type="hidden" name="version" value={bet.version} />
          <button type="submit" className="btn-primary w-full">
            {t("join.submit")}
          </button>
        </KeyedForm>
      )}
      <Link
        to={href("/bet/:id", { id: String(bet.id) })}
        className="btn-secondary w-full"
      >
        {t("join.details")}
      </Link>
    </Shell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <Shell>
      <GeneralErrorBoundary
        error={error}
        statusHandlers={{}}
        defaultStatusHandler={copyFromData(JOIN_FAILED)}
        unexpected={JOIN_FAILED}
        Frame={JoinCard}
      >
        <HomeLink className="btn-secondary" />
        <Link to={href("/create-bet")} className="btn-primary">
          Create a Bet
        </Link>
      </GeneralErrorBoundary>
    </Shell>
  );
}

const JOIN_FAILED = {
  title: "Error joining bet",
  message: "An unexpected error occurred. Please try again.",
};
const JoinCard = cardFrame("grid grid-cols-2 gap-2");

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  {
    title: loaderData
      ? metaT(matches)("join.title", { title: loaderData.bet.title })
      : metaT(matches)("join.titleNone"),
  },
];
