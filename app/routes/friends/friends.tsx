import { data, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import type { Route } from "./+types/friends";
import { FriendsPanel } from "~/components/friends/friends-panel";
import { requireUser } from "~/models/accounts/session.server";
import { friendsAction, loadFriendsView } from "./friends-view.server";
import type { FriendsActionFailure, FriendsTab } from "~/domain/friends";
import type { RouteTraits } from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";
import { metaT, useT } from "~/components/i18n";

// /friends: tabs Friends, Requests and Add; the state is in the URL.
const TAB_PARAM: Record<string, FriendsTab> = {
  friends: "friends",
  requests: "requests",
  add: "find",
};

// Friend requests and answers wait on the device, named by their intent.
export const handle: RouteTraits<MessageKey> = {
  messages: ["friends"],
  offline: {
    label: "kept.friends",
    intents: {
      send: "kept.sendFriendRequest",
      accept: "kept.acceptFriendRequest",
      decline: "kept.declineFriendRequest",
    },
  },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const params = new URL(request.url).searchParams;
  const tab = TAB_PARAM[params.get("tab") ?? ""] ?? "friends";
  const { view, status } = await loadFriendsView(request, user, {
    tab,
    q: params.get("q"),
  });
  return data({ view }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  return friendsAction(request, user, href("/friends"));
}

const tabHref = (tab: FriendsTab) =>
  tab === "friends"
    ? href("/friends")
    : tab === "requests"
      ? `${href("/friends")}?tab=requests`
      : `${href("/friends")}?tab=add`;

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function Friends({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t("friends.heading")}</h1>
      <FriendsPanel
        view={loaderData.view}
        failure={actionData as FriendsActionFailure | undefined}
        links={{
          tabHref,
          findLabel: "friends.add",
          searchAction: href("/friends"),
          searchHidden: { tab: "add" },
          shortHint: "friends.shortHint",
        }}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("friends.pageTitle") },
];
