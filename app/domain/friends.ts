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

export type FriendsView = {
  tab: FriendsTab;
  friends: (FriendEntry & { recordText?: string })[];
  friendsError: string | null;
  requests: RequestEntry[];
  requestsError: string | null;
  requestCount: number;
  search: {
    q: string;
    results: (SearchResult & { recordText?: string })[] | null;
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
