import { Form, useNavigation } from "react-router";
import { USERNAME_MAX } from "~/domain/user";
import { PersonHeading } from "./person-heading";
import type { SearchResult, ShownResult } from "~/domain/friends";
import { FriendForm } from "./friend-form";
import { useT } from "~/components/i18n";

/**
 * The friend search: a GET form (the query lives in the URL) and its
 * results. `hidden` keeps the page's tab parameters; `shortHint` is the product's
 * screen-specific wording of the too-short message.
 */
export function UserSearch({
  action,
  hidden,
  q,
  results,
  tooShort,
  shortHint,
}: {
  action: string;
  hidden: Record<string, string>;
  q: string;
  results: ShownResult[] | null;
  tooShort: boolean;
  shortHint: string;
}) {
  const navigation = useNavigation();
  const t = useT();
  const searching =
    navigation.state === "loading" &&
    navigation.location?.search.includes("q=");
  return (
    <div className="space-y-3">
      <Form method="get" action={action} role="search" className="flex gap-2">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor="friend-search" className="sr-only">
          {t("friends.searchLabel")}
        </label>
        <input
          id="friend-search"
          name="q"
          type="search"
          className="input"
          placeholder={t("friends.searchLabel")}
          defaultValue={q}
          maxLength={USERNAME_MAX}
          autoCapitalize="none"
          autoComplete="off"
          aria-invalid={tooShort || undefined}
          aria-describedby={tooShort ? "friend-search-error" : undefined}
        />
        <button type="submit" className="btn-primary">
          {searching ? t("friends.searching") : t("friends.search")}
        </button>
      </Form>
      {tooShort ? (
        <div
          id="friend-search-error"
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          <p className="font-semibold">{t("friends.tooShort")}</p>
          <p>{shortHint}</p>
        </div>
      ) : null}
      {results && results.length === 0 ? (
        <p className="text-slate-700">{t("friends.noMatch", { q })}</p>
      ) : null}
      {results && results.length > 0 ? (
        <ul aria-label={t("friends.results")} className="space-y-2">
          {results.map((user) => (
            <li key={user.id} className="card space-y-3">
              <PersonHeading person={user} recordText={user.recordText} />
              <Relation user={user} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Relation({ user }: { user: SearchResult }) {
  const t = useT();
  if (user.relation === "friend")
    return (
      <span className="badge bg-brand-100 text-brand-800">
        {t("friends.areFriends")}
      </span>
    );
  if (user.relation === "sent")
    return (
      <span className="badge bg-slate-200 text-slate-800">
        {t("friends.requestSent")}
      </span>
    );
  if (user.relation === "received")
    return (
      <FriendForm
        intent="accept"
        friendId={user.id}
        label={t("friends.acceptRequest")}
        ariaLabel={t("friends.acceptName", { username: user.username })}
      />
    );
  return (
    <FriendForm
      intent="send"
      friendId={user.id}
      label={t("friends.addFriend")}
      ariaLabel={t("friends.addName", { username: user.username })}
    />
  );
}
