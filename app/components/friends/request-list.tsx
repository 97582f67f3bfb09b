import type { RequestEntry } from "~/domain/friends";
import { FriendForm } from "./friend-form";
import { PersonHeading } from "./person-heading";

export function RequestList({
  requests,
  error,
}: {
  requests: RequestEntry[];
  error: string | null;
}) {
  if (error)
    return (
      <p role="alert" className="text-red-700">
        Error loading requests: {error}
      </p>
    );
  if (requests.length === 0)
    return (
      <p className="card text-center text-slate-700">
        No pending friend requests.
      </p>
    );
  return (
    <ul aria-label="Friend requests" className="space-y-2">
      {requests.map(({ id, friend }) => (
        <li key={id} className="card space-y-3">
          <PersonHeading person={friend} />
          <div className="grid grid-cols-2 gap-2 [&_button]:w-full">
            <FriendForm
              intent="accept"
              friendId={friend.id}
              label="Accept"
              ariaLabel={`Accept ${friend.username}`}
            />
            <FriendForm
              intent="decline"
              friendId={friend.id}
              label="Decline"
              ariaLabel={`Decline ${friend.username}`}
              secondary
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
