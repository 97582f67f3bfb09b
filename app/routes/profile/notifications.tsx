import { useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { ProfileSubPage } from "~/components/profile/profile-sub-page";
import type { Route } from "./+types/notifications";
import { PushButton } from "~/components/notifications/push-button";
import {
  NOTIFICATION_KINDS,
  type NotificationKind,
} from "~/models/notifications/notification-kinds";
import { metaT, useT, type MessageKey } from "~/components/i18n";
import { serverT } from "~/framework/catalogs.server";
import { pageLanguage } from "~/framework/language.server";
import {
  getNotificationPreferences,
  preferencesFromForm,
  updateNotificationPreferences,
} from "~/models/notifications/notification-preferences.server";
import { readFormData } from "~/framework/form-data.server";
import { requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import type { RouteTraits } from "~/domain/route-traits";

// Settings changed offline wait on the device.
export const handle: RouteTraits<MessageKey> = {
  messages: ["header", "subPage", "notifySettings", "push"],
  offline: { label: "kept.notificationSettings" },
};

/** How the page names each kind (who hears it: docs/product-rules.md#notifications). */
const KIND_KEYS: Record<NotificationKind, MessageKey> = {
  bet_joined: "notifySettings.betJoined",
  settlement_proposed: "notifySettings.settlementProposed",
  settlement_reminder: "notifySettings.settlementReminder",
  settlement_rejected: "notifySettings.settlementRejected",
  bet_settled: "notifySettings.betSettled",
  referee_requested: "notifySettings.refereeRequested",
  referee_ruled: "notifySettings.refereeRuled",
  payment_due: "notifySettings.paymentDue",
  payment_overdue: "notifySettings.paymentOverdue",
  payment_nudge: "notifySettings.paymentNudge",
  payment_received: "notifySettings.paymentReceived",
  friend_request_received: "notifySettings.friendRequestReceived",
  friend_request_accepted: "notifySettings.friendRequestAccepted",
  bet_message: "notifySettings.betMessage",
};

// /profile/notifications (docs/product-rules.md#notifications): which kinds reach you by email and by
// push, as one no-JS form of checkboxes; the push button needs JavaScript by
// nature and says so without it.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  return {
    preferences: await getNotificationPreferences(user.id),
    email: user.email,
    emailVerified: user.emailVerified,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  await updateNotificationPreferences(user.id, preferencesFromForm(form));
  const t = serverT(pageLanguage(request, user.language));
  return redirectWithToast(href("/profile/notifications"), {
    title: t("notifySettings.saved"),
  });
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function NotificationSettings({
  loaderData,
}: Route.ComponentProps) {
  const { preferences, email, emailVerified } = loaderData;
  const saving = useNavigation().state === "submitting";
  const t = useT();
  return (
    <ProfileSubPage title={t("notifySettings.heading")}>
      <section className="card space-y-2" aria-labelledby="push-heading">
        <h2 id="push-heading" className="text-lg font-semibold">
          {t("notifySettings.thisDevice")}
        </h2>
        <PushButton />
      </section>
      <KeyedForm method="post" className="card space-y-3">
        <h2 className="text-lg font-semibold">
          {t("notifySettings.whatReaches")}
        </h2>
        <p className="text-sm text-slate-600">
          {emailVerified
            ? t("notifySettings.mailTo", { email })
            : t("notifySettings.mailToUnconfirmed", { email })}
        </p>
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col" className="py-2 font-medium">
                {t("notifySettings.when")}
              </th>
              <th scope="col" className="w-16 py-2 text-center font-medium">
                {t("notifySettings.email")}
              </th>
              <th scope="col" className="w-16 py-2 text-center font-medium">
                {t("notifySettings.push")}
              </th>
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_KINDS.map((kind) => (
              <tr key={kind} className="border-t border-slate-200">
                <th scope="row" className="py-2 pr-2 font-normal">
                  {t(KIND_KEYS[kind])}
                </th>
                {(["email", "push"] as const).map((channel) => (
                  <td key={channel} className="py-2 text-center">
                    <input
                      type="checkbox"
                      name={`${channel}.${kind}`}
                      defaultChecked={preferences[channel][kind]}
                      aria-label={
                        channel === "email"
                          ? t("notifySettings.byEmail", {
                              kind: t(KIND_KEYS[kind]),
                            })
                          : t("notifySettings.byPush", {
                              kind: t(KIND_KEYS[kind]),
                            })
                      }
                      className="h-5 w-5"
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <button type="submit" className="btn-primary w-full" disabled={saving}>
          {saving ? t("notifySettings.saving") : t("notifySettings.save")}
        </button>
      </KeyedForm>
    </ProfileSubPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("notifySettings.pageTitle") },
];
