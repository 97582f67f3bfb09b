// The data and the form handling behind the friends UI, shared by /friends
// (tabs Friends, Requests, Add) and /search?tab=friends (sub-tabs Friends,
// Requests, Find). A route calls loadFriendsView in its loader and
// friendsAction in its action; the components in app/components/friends/
// render the result.
import { href } from "react-router";
import {
  acceptFriendRequest,
  declineFriendRequest,
  sendFriendRequest,
} from "~/models/social/friend.server";
import {
  countIncomingRequests,
  listFriends,
  listIncomingRequests,
  searchUsers,
} from "~/models/social/friend-lists.server";
import {
  FRIEND_MESSAGES,
  parseFriendId,
  parseSearchQuery,
} from "~/models/social/friend-input.server";
import { getPaymentRecords } from "~/models/payments/dues.server";
import { paymentRecordText } from "~/domain/payment-record-text";
import { serverT } from "~/framework/catalogs.server";
import { pageLanguage } from "~/framework/language.server";
import { getPublicUser } from "~/models/accounts/user.server";
import { DomainError, invalid } from "~/utils/errors";
import { formFailure, pageFailure } from "~/framework/page.server";
import type { FriendsTab, FriendsView, Worded } from "~/domain/friends";
import type { PublicUser } from "~/domain/user";
import { safeRedirect } from "~/utils/safe-redirect";
import { redirectWithToast } from "~/framework/toast.server";
import { readFormData } from "~/framework/form-data.server";

/** docs/product-rules.md#getting-paid: each row says how its person pays their lost bets. */
async function withRecordText<T>(
  rows: T[],
  idOf: (row: T) => number,
  t: ReturnType<typeof serverT>,
) {
  const records = await getPaymentRecords(rows.map(idOf));
  return rows.map((row) => ({
    ...row,
    recordText: paymentRecordText(t, records.get(idOf(row))!),
  }));
}

/** The person's wins and losses in words, for the friends screens (domain/friends.ts says why). */
function worded<T extends PublicUser>(
  person: T,
  t: ReturnType<typeof serverT>,
): Worded<T> {
  return {
    ...person,
    winsLossesText: t("friends.winsLosses", {
      wins: person.winCount,
      losses: person.lossCount,
    }),
  };
}

type Reader = { id: number; language: string | null };
const tFor = (request: Request, user: Reader) =>
  serverT(pageLanguage(request, user.language));

/** /search's Friends sub-tab from `?sub=` (friends | requests | find). */
export function friendsSubTab(params: URLSearchParams): FriendsTab {
  const sub = params.get("sub");
  return sub === "requests" || sub === "find" ? sub : "friends";
}

function messageOf(error: unknown) {
  return error instanceof Error ? error.message : "Unknown error";
}

/**
 * Loads what the current tab needs. A query under 2 characters is a 400
 * (the page still renders, with the product's 'Search query too short').
 */
export async function loadFriendsView(
  request: Request,
  user: Reader,
  params: { tab: FriendsTab; q: string | null },
): Promise<{ view: FriendsView; status: number }> {
  const view: FriendsView = {
    tab: params.tab,
    friends: [],
    friendsError: null,
    requests: [],
    requestsError: null,
    requestCount: 0,
    search: { q: params.q ?? "", results: null, tooShort: false },
  };
  let status = 200;
  const userId = user.id;
  const t = tFor(request, user);
  try {
    view.requestCount = await countIncomingRequests(userId);
    if (params.tab === "friends")
      view.friends = await withRecordText(
        (await listFriends(userId)).map((e) => ({
          ...e,
          friend: worded(e.friend, t),
        })),
        (e) => e.friend.id,
        t,
      );
  } catch (error) {
    console.error(error);
    view.friendsError = messageOf(error);
  }
  if (params.tab === "requests") {
    try {
      view.requests = (await listIncomingRequests(userId)).map((e) => ({
        ...e,
        friend: worded(e.friend, t),
      }));
    } catch (error) {
      console.error(error);
      view.requestsError = messageOf(error);
    }
  }
  if (params.tab === "find" && params.q !== null) {
    try {
      view.search.results = await withRecordText(
        (await searchUsers({ userId, query: parseSearchQuery(params.q) })).map(
          (u) => worded(u, t),
        ),
        (u) => u.id,
        t,
      );
    } catch (error) {
      if (pageFailure(error).status !== 400) throw error;
      view.search.tooShort = true;
      status = 400;
    }
  }
  return { view, status };
}

const INTENTS = {
  send: { ok: "friends.toastSent", fail: "friends.sendFailed" },
  accept: { ok: "friends.toastAccepted", fail: "friends.acceptFailed" },
  decline: { ok: "friends.toastDeclined", fail: "friends.declineFailed" },
} as const;

/** Whether a posted form is one of the friend forms (for a page with other forms too). */
export function isFriendForm(form: FormData) {
  // Own keys only: "constructor" or "toString" is not a friend action.
  return Object.hasOwn(INTENTS, String(form.get("intent") ?? ""));
}

/**
 * Handles the friend forms (intent send | accept | decline, friendId,
 * return_to). Success redirects back with the product's toast; a refusal answers
 * with its status and the message for the page (docs/api.md). Pass `form`
 * when the route has already read the body.
 */
export async function friendsAction(
  request: Request,
  user: Reader,
  fallback = href("/friends"),
  form?: FormData,
) {
  form ??= await readFormData(request);
  const userId = user.id;
  const t = tFor(request, user);
  const intent = String(form.get("intent") ?? "");
  const returnTo = safeRedirect(form.get("return_to"), fallback);
  if (!Object.hasOwn(INTENTS, intent)) {
    return formFailure(invalid("Unknown action"), t("friends.error"), {
      intent,
    });
  }
  const texts = INTENTS[intent as keyof typeof INTENTS];
  try {
    const friendId = parseFriendId({ friendId: form.get("friendId") });
    const other = await getPublicUser(friendId);
    if (!other) throw new DomainError(404, FRIEND_MESSAGES.userNotFound);
    let description: string;
    if (intent === "send") {
      await sendFriendRequest({ userId, friendId });
      description = t("friends.toastSentText", { username: other.username });
    } else if (intent === "accept") {
      await acceptFriendRequest({ userId, requesterId: friendId });
      description = t("friends.toastAcceptedText", {
        username: other.username,
      });
    } else {
      await declineFriendRequest({ userId, requesterId: friendId });
      description = t("friends.toastDeclinedText", {
        username: other.username,
      });
    }
    return redirectWithToast(returnTo, { title: t(texts.ok), description });
  } catch (error) {
    return formFailure(error, () => t(texts.fail), { intent });
  }
}
