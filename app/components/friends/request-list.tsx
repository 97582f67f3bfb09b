import type { ShownRequest } from "~/domain/friends";
import { FriendForm } from "./friend-form";
import { PersonHeading } from "./person-heading";
import { useT } from "~/components/i18n";

export function RequestList({
  requests,
  error,
}: {
  requests: ShownRequest[];
  error: string | null;
}) {
  const t = useT();
  if (error)
    return (
      <p role="alert" className="text-red-700">
        {t("friends.requestsLoadError", { error })}
      </p>
    );
  if (requests.length === 0)
    return (
      <p className="card text-center text-slate-700">
        {t("friends.noRequests")}
      </p>
    );
  return (
    <ul aria-label={t("friends.requestList")} className="space-y-2">
      {requests.map(({ id, friend }) => (
        <li key={id} className="card space-y-3">
          <PersonHeading person={friend} />
          <div className="grid grid-cols-2 gap-2 [&_button]:w-full">
            <FriendForm
              intent="accept"
              friendId={friend.id}
              label={t("friends.accept")}
              ariaLabel={t("friends.acceptName", { username: friend.username })}
            />
            <FriendForm
              intent="decline"
              friendId={friend.id}
              label={t("friends.decline")}
              ariaLabel={t("friends.declineName", {
                username: friend.username,
              })}
              secondary
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
