// Client-safe shapes of the friends UI: the models and the route helper fill
// them, the components in app/components/friends/ render them.
import type { FieldErrors } from "~/utils/errors";
import type { PublicUser } from "./user";

export type HeadToHead = { wins: number; losses: number };
export type FriendEntry = {
  id: number;
  friend: PublicUser;
  headToHead: HeadToHead;
};
export type RequestEntry = { id: number; friend: PublicUser; createdAt: Date };
export type Relation = "friend" | "sent" | "received" | "none";
export type SearchResult = PublicUser & { relation: Relation };

export type FriendsTab = "friends" | "requests" | "find";

/**
 * A person as the friends screens show one: their wins and losses worded by
 * the server, a plural the browser would need its first Intl formatter for
 * while the page hydrates (docs/decisions/1169-counts-worded-by-the-loader.md).
 */
export type Worded<T extends PublicUser> = T & { winsLossesText: string };

export type ShownFriend = Omit<FriendEntry, "friend"> & {
  friend: Worded<PublicUser>;
  recordText?: string;
};
export type ShownRequest = Omit<RequestEntry, "friend"> & {
  friend: Worded<PublicUser>;
};
export type ShownResult = Worded<SearchResult> & { recordText?: string };

export type FriendsView = {
  tab: FriendsTab;
  friends: ShownFriend[];
  friendsError: string | null;
  requests: ShownRequest[];
  requestsError: string | null;
  requestCount: number;
  search: {
    q: string;
    results: ShownResult[] | null;
    tooShort: boolean;
  };
};

export type FriendsActionFailure = {
  ok: false;
  status: number;
  title: string;
  message: string;
  fieldErrors: FieldErrors;
  intent: string;
};
