// The whole friends area: sub-tabs, the current list and the search. Used
// by /friends (tabs Friends, Requests, Add) and /search's Friends tab
// (Friends, Requests, Find); each page passes its own links and wording.
import { FormAlert } from "~/components/forms";
import { LinkTabs } from "~/components/ui/link-tabs";
import type {
  FriendsActionFailure,
  FriendsTab,
  FriendsView,
} from "~/domain/friends";
import { FriendList } from "./friend-list";
import { RequestList } from "./request-list";
import { UserSearch } from "./user-search";
import { href } from "react-router";
import { useT, type MessageKey } from "~/components/i18n";

export type FriendsPanelLinks = {
  /** The URL of each sub-tab. */
  tabHref: (tab: FriendsTab) => string;
  /** The label of the search tab: 'Add' on /friends, 'Find' on /search. */
  findLabel: MessageKey;
  /** Where the search form submits and which tab parameters it keeps. */
  searchAction: string;
  searchHidden: Record<string, string>;
  shortHint: MessageKey;
};

export function FriendsPanel({
  view,
  links,
  failure,
}: {
  view: FriendsView;
  links: FriendsPanelLinks;
  failure?: FriendsActionFailure | null;
}) {
  const t = useT();
  return (
    <div className="space-y-4">
      <LinkTabs
        label={t("friends.sections")}
        current={view.tab}
        tabs={[
          {
            id: "friends",
            label: t("friends.tabFriends"),
            to: links.tabHref("friends"),
          },
          {
            id: "requests",
            label: (
              <>
                {t("friends.tabRequests")}
                {view.requestCount > 0 ? (
                  <span className="badge ml-1 bg-red-600 text-white">
                    <span className="sr-only">(</span>
                    {view.requestCount}
                    <span className="sr-only"> {t("friends.pending")})</span>
                  </span>
                ) : null}
              </>
            ),
            to: links.tabHref("requests"),
          },
          {
            id: "find",
            label: t(links.findLabel),
            to: links.tabHref("find"),
          },
        ]}
      />
      {failure ? (
        <FormAlert title={failure.title} message={failure.message} />
      ) : null}
      {view.tab === "friends" ? (
        <FriendList
          friends={view.friends}
          error={view.friendsError}
          findHref={links.tabHref("find")}
        />
      ) : view.tab === "requests" ? (
        <RequestList requests={view.requests} error={view.requestsError} />
      ) : (
        <UserSearch
          action={links.searchAction}
          hidden={links.searchHidden}
          q={view.search.q}
          results={view.search.results}
          tooShort={view.search.tooShort}
          shortHint={t(links.shortHint)}
        />
      )}
    </div>
  );
}

/** The links and wording of /search?tab=friends (sub-tabs in `sub`). */
export const SEARCH_FRIENDS_LINKS: FriendsPanelLinks = {
  tabHref: (tab) =>
    tab === "friends"
      ? `${href("/search")}?tab=friends`
      : `${href("/search")}?tab=friends&sub=${tab}`,
  findLabel: "friends.find",
  searchAction: href("/search"),
  searchHidden: { tab: "friends", sub: "find" },
  shortHint: "friends.shortHintDiscover",
};
