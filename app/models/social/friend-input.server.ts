// Friends' input and messages: reading a friend id and a search query,
// and the words every refusal uses (pages and the API alike).
import { z } from "zod";
import { invalid } from "~/utils/errors";

export const SEARCH_MIN = 2;
export const SEARCH_MAX = 50;
export const SEARCH_LIMIT = 20;

export const FRIEND_MESSAGES = {
  self: "You cannot send a friend request to yourself.",
  userNotFound: "User not found",
  alreadyFriends: "You are already friends with this user.",
  alreadyRequested: "You have already sent this user a friend request.",
  theyAsked:
    "This user has already sent you a friend request — accept it instead.",
  requestNotFound: "Friend request not found",
  queryTooShort: "Search query too short",
} as const;

const FriendIdSchema = z.object({
  friendId: z.coerce
    .number({ error: "friendId must be a user id" })
    .int("friendId must be a user id")
    .positive("friendId must be a user id")
    .max(Number.MAX_SAFE_INTEGER, "friendId must be a user id"),
});

/** Reads `{friendId}` from a JSON body or a form: 400 when it is not an id. */
export function parseFriendId(input: unknown): number {
  const raw =
    input && typeof input === "object"
      ? (input as Record<string, unknown>).friendId
      : undefined;
  // z.coerce would read "" and null as 0 and true as 1; only digits and numbers pass.
  const value =
    typeof raw === "number" || (typeof raw === "string" && /^\d+$/.test(raw))
      ? raw
      : Number.NaN;
  const parsed = FriendIdSchema.safeParse({ friendId: value });
  if (!parsed.success)
    throw invalid("friendId must be a user id", {
      friendId: ["friendId must be a user id"],
    });
  return parsed.data.friendId;
}

/** 400 'Search query too short' under 2 characters (after trimming). */
export function parseSearchQuery(raw: unknown): string {
  const q = typeof raw === "string" ? raw.trim() : "";
  if ([...q].length < SEARCH_MIN)
    throw invalid(FRIEND_MESSAGES.queryTooShort, {
      q: [FRIEND_MESSAGES.queryTooShort],
    });
  return [...q].slice(0, SEARCH_MAX).join("");
}
