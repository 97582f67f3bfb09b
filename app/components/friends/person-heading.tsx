import { UserAvatar } from "~/components/user-avatar";

/**
 * A person as the friends screens show one (a friend, a request, a search
 * result): picture or initials, name, record, the payment record when
 * known, then anything the row adds (`children`).
 */
export function PersonHeading({
  person,
  recordText,
  children,
}: {
  person: {
    username: string;
    avatarUrl: string | null;
    /** Worded by the loader (domain/friends.ts says why). */
    winsLossesText: string;
  };
  recordText?: string | null;
  children?: React.ReactNode;
}) {
  return (
    <div className="flex items-center gap-3">
      <UserAvatar username={person.username} avatarUrl={person.avatarUrl} />
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold">{person.username}</p>
        <p className="text-sm text-slate-600">{person.winsLossesText}</p>
        {recordText ? (
          <p className="text-sm text-slate-600">{recordText}</p>
        ) : null}
        {children}
      </div>
    </div>
  );
}
