// /search (Discover): Find Bets by code and the public feed. Tabs are links
// (docs/product-rules.md#forms-and-messages); the Friends tab's content arrives with the social issue.
import { useState } from "react";
import {
  data,
  Form,
  Link,
  redirect,
  useNavigation,
  useSearchParams,
  href,
} from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import type { Route } from "./+types/search";
import { FormAlert } from "~/components/forms";
import { LinkTabs } from "~/components/ui/link-tabs";
import { listPublicBets } from "~/models/bets/bet-lists.server";
import { normalizeCode } from "~/models/bets/bet-input.server";
import { openBetByCode } from "~/models/bets/bet-access.server";
import { formatDateIn } from "~/framework/dates-in-language.server";
import { metaT, useLanguage, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { DomainError } from "~/utils/errors";

const CODE_LENGTH = 6;
import { formFailure, pageFailure } from "~/framework/page.server";
import { formatMoney, type Currency } from "~/domain/currency";
import { requireUser } from "~/models/accounts/session.server";
import { readFormData } from "~/framework/form-data.server";
import {
  FriendsPanel,
  SEARCH_FRIENDS_LINKS,
} from "~/components/friends/friends-panel";
import {
  friendsAction,
  friendsSubTab,
  isFriendForm,
  loadFriendsView,
} from "~/routes/friends/friends-view.server";
import type { FriendsActionFailure } from "~/domain/friends";
import { clientAddressContext } from "~/framework/request-context.server";
import type { RouteTraits } from "~/domain/route-traits";

// Searching offline has nothing to wait for.
export const handle: RouteTraits = {
  messages: ["discover", "friends"],
  offline: false,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const params = new URL(request.url).searchParams;
  const tab = params.get("tab") === "friends" ? "friends" : "bets";
  if (tab === "friends") {
    const { view, status } = await loadFriendsView(request, user, {
      tab: friendsSubTab(params),
      q: params.get("q"),
    });
    return data(
      { tab, publicBets: [], feedError: false, friends: view },
      { status },
    );
  }
  const language = pageLanguage(request, user.language);
  try {
    const publicBets = (await listPublicBets()).map((b) => ({
      id: b.id,
      code: b.code,
      title: b.title,
      description: b.description,
      amountCents: b.amountCents,
      currency: b.currency,
      created: formatDateIn(b.createdAt, language),
    }));
    return { tab, publicBets, feedError: false, friends: null };
  } catch (error) {
    console.error(error);
    return { tab, publicBets: [], feedError: true, friends: null };
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  if (isFriendForm(form))
    return friendsAction(request, user, `${href("/search")}?tab=friends`, form);
  const t = serverT(pageLanguage(request, user.language));
  const raw = form.get("code");
  const code = normalizeCode(typeof raw === "string" ? raw : "");
  const fail = (status: 400 | 404 | 429, title: string, message: string) =>
    formFailure(new DomainError(status, message), () => title, { code });
  if (code === "")
    return fail(400, t("discover.noCodeTitle"), t("discover.noCode"));
  if (code.length !== CODE_LENGTH)
    return fail(400, t("discover.badCodeTitle"), t("discover.badCode"));
  try {
    const bet = await openBetByCode({
      code,
      userId: user.id,
      clientAddress: context.get(clientAddressContext),
    });
    return redirect(href("/bet/:id", { id: String(bet.id) }));
  } catch (error) {
    const failure = pageFailure(error);
    if (failure.status === 429)
      return fail(429, t("discover.tooManyTitle"), failure.message);
    return fail(404, t("discover.notFoundTitle"), t("discover.notFound"));
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function Search({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { tab } = loaderData;
  const codeFailure =
    actionData && "code" in actionData ? actionData : undefined;
  const t = useT();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t("discover.heading")}</h1>
      <LinkTabs
        label={t("discover.sections")}
        current={tab}
        tabs={[
          { id: "bets", label: t("discover.findBets"), to: href("/search") },
          {
            id: "friends",
            label: t("discover.friends"),
            to: `${href("/search")}?tab=friends`,
          },
        ]}
      />
      {tab === "friends" && loaderData.friends ? (
        <FriendsPanel
          view={loaderData.friends}
          links={SEARCH_FRIENDS_LINKS}
          failure={
            actionData && "intent" in actionData
              ? (actionData as FriendsActionFailure)
              : null
          }
        />
      ) : (
        <>
          <CodeSearch
            failure={codeFailure ?? null}
            key={codeFailure?.code ?? ""}
          />
          <PublicBets
            bets={loaderData.publicBets}
            error={loaderData.feedError}
          />
        </>
      )}
    </div>
  );
}

function CodeSearch({
  failure,
}: {
  failure: { title: string; message: string; code: string } | null;
}) {
  const [code, setCode] = useState(failure?.code ?? "");
  const navigation = useNavigation();
  const t = useT();
  const searching =
    navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <section className="card space-y-3" aria-labelledby="find-heading">
      <h2 id="find-heading" className="font-semibold">
        {t("discover.byCode")}
      </h2>
      <FormAlert title={failure?.title} message={failure?.message} />
      <Form method="post" className="flex gap-2">
        <label htmlFor="bet-code" className="sr-only">
          {t("discover.code")}
        </label>
        <input
          id="bet-code"
          name="code"
          className="input font-mono uppercase tracking-widest"
          placeholder="ABC234"
          maxLength={CODE_LENGTH}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.toUpperCase())}
        />
        <button type="submit" className="btn-primary" disabled={searching}>
          {t("discover.find")}
        </button>
      </Form>
    </section>
  );
}

function PublicBets({
  bets,
  error,
}: {
  bets: {
    id: number;
    code: string;
    title: string;
    description: string;
    amountCents: number;
    currency: Currency;
    created: string;
  }[];
  error: boolean;
}) {
  const [params] = useSearchParams();
  const t = useT();
  const language = useLanguage();
  return (
    <section className="space-y-3" aria-labelledby="public-heading">
      <h2 id="public-heading" className="font-semibold">
        {t("discover.publicHeading")}
      </h2>
      {error ? (
        <div className="card space-y-2" role="alert">
          <p>{t("discover.feedError")}</p>
          <Link
            to={`${href("/search")}?${params.toString()}`}
            className="btn-secondary"
          >
            {t("discover.tryAgain")}
          </Link>
        </div>
      ) : bets.length === 0 ? (
        <p className="card text-slate-700">{t("discover.empty")}</p>
      ) : (
        <ul className="space-y-3" aria-label={t("discover.publicList")}>
          {bets.map((b) => (
            <li key={b.id} className="card relative space-y-1">
              <div className="flex items-start justify-between gap-2">
                <h3 className="break-words font-semibold">
                  <Link
                    to={href("/bet/:id", { id: String(b.id) })}
                    className="after:absolute after:inset-0 after:content-['']"
                  >
                    {b.title}
                  </Link>
                </h3>
                <span className="font-semibold">
                  {formatMoney(b.amountCents, b.currency, language, {
                    whole: true,
                  })}
                </span>
              </div>
              <p className="line-clamp-2 break-words text-sm text-slate-700">
                {b.description}
              </p>
              <p className="flex justify-between text-xs text-slate-600">
                <span>{b.created}</span>
                <span className="font-mono font-bold tracking-widest">
                  {b.code}
                </span>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("discover.pageTitle") },
];
