import { PersonHeading } from "./person-heading";
import type { FriendEntry } from "~/domain/friends";

/** A friend: picture or initials, name, record, and the head-to-head. */
export function FriendRow({
  entry,
}: {
  entry: FriendEntry & { recordText?: string };
}) {
  const { friend, headToHead } = entry;
  const played = headToHead.wins + headToHead.losses;
  return (
    <li className="card space-y-3">
      <PersonHeading person={friend} recordText={entry.recordText}>
        <p className="text-sm text-slate-700">
          {played === 0
            ? "No settled bets between you yet"
            : `You vs ${friend.username}: ${headToHead.wins} - ${headToHead.losses}`}
        </p>
      </PersonHeading>
      {/* Product rules: Invite to Bet only says 'Feature coming soon' (docs/product-rules.md#forms-and-messages). */}
      <details className="text-sm">
        <summary className="btn-secondary cursor-pointer list-none">
          Invite to Bet
        </summary>
        <p role="note" className="mt-1 text-slate-700">
          Feature coming soon
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
  friends: (FriendEntry & { recordText?: string })[];
  error: string | null;
  findHref: string;
}) {
  if (error)
    return (
      <p role="alert" className="text-red-700">
        Error loading friends: {error}
      </p>
    );
  if (friends.length === 0)
    return (
      <div className="card text-center">
        <p className="mb-3 text-slate-700">You have no friends here yet.</p>
        <a href={findHref} className="btn-primary">
          Find friends
        </a>
      </div>
    );
  return (
    <ul aria-label="Friends" className="space-y-2">
      {friends.map((entry) => (
        <FriendRow key={entry.id} entry={entry} />
      ))}
    </ul>
  );
}
