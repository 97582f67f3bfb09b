import { PersonHeading } from "./person-heading";
import type { ShownFriend } from "~/domain/friends";
import { useT } from "~/components/i18n";

/** A friend: picture or initials, name, record, and the head-to-head. */
export function FriendRow({ entry }: { entry: ShownFriend }) {
  const { friend, headToHead } = entry;
  const played = headToHead.wins + headToHead.losses;
  const t = useT();
  return (
    <li className="card space-y-3">
      <PersonHeading person={friend} recordText={entry.recordText}>
        <p className="text-sm text-slate-700">
          {played === 0
            ? t("friends.noHeadToHead")
            : t("friends.headToHead", {
                username: friend.username,
                wins: headToHead.wins,
                losses: headToHead.losses,
              })}
        </p>
      </PersonHeading>
      {/* Product rules: Invite to Bet only says 'Feature coming soon' (docs/product-rules.md#forms-and-messages). */}
      <details className="text-sm">
        <summary className="btn-secondary cursor-pointer list-none">
          {t("friends.invite")}
        </summary>
        <p role="note" className="mt-1 text-slate-700">
          {t("friends.comingSoon")}
        </p>
      </details>
    </li>
  );
}

export function FriendList({
  friends,
  error,
  findHref,
}: {
  friends: ShownFriend[];
  error: string | null;
  findHref: string;
}) {
  const t = useT();
  if (error)
    return (
      <p role="alert" className="text-red-700">
        {t("friends.loadError", { error })}
      </p>
    );
  if (friends.length === 0)
    return (
      <div className="card text-center">
        <p className="mb-3 text-slate-700">{t("friends.none")}</p>
        <a href={findHref} className="btn-primary">
          {t("friends.findFriends")}
        </a>
      </div>
    );
  return (
    <ul aria-label={t("friends.list")} className="space-y-2">
      {friends.map((entry) => (
        <FriendRow key={entry.id} entry={entry} />
      ))}
    </ul>
  );
}
