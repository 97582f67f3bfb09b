import { useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { ProfileSubPage } from "~/components/page-frames";
import type { Route } from "./+types/notifications";
import { PushButton } from "~/components/notifications/push-button";
import {
  KIND_LABELS,
  NOTIFICATION_KINDS,
} from "~/models/notifications/notification-kinds";
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
export const handle: RouteTraits = {
  messages: ["header"],
  offline: { label: "Notification settings" },
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
  return redirectWithToast(href("/profile/notifications"), {
    title: "Notification settings saved",
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
  return (
    <ProfileSubPage title="Notifications">
      <section className="card space-y-2" aria-labelledby="push-heading">
        <h2 id="push-heading" className="text-lg font-semibold">
          On this device
        </h2>
        <PushButton />
      </section>
      <KeyedForm method="post" className="card space-y-3">
        <h2 className="text-lg font-semibold">What reaches you</h2>
        <p className="text-sm text-slate-600">
          Mail goes to {email}
          {emailVerified ? "." : " once you confirm it."} Everything always
          shows under Activity.
        </p>
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col" className="py-2 font-medium">
                When
              </th>
              <th scope="col" className="w-16 py-2 text-center font-medium">
                Email
              </th>
              <th scope="col" className="w-16 py-2 text-center font-medium">
                Push
              </th>
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_KINDS.map((kind) => (
              <tr key={kind} className="border-t border-slate-200">
                <th scope="row" className="py-2 pr-2 font-normal">
                  {KIND_LABELS[kind]}
                </th>
                {(["email", "push"] as const).map((channel) => (
                  <td key={channel} className="py-2 text-center">
                    <input
                      type="checkbox"
                      name={`${channel}.${kind}`}
                      defaultChecked={preferences[channel][kind]}
                      aria-label={`${KIND_LABELS[kind]} by ${channel}`}
                      className="h-5 w-5"
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <button type="submit" className="btn-primary w-full" disabled={saving}>
          {saving ? "Saving..." : "Save"}
        </button>
      </KeyedForm>
    </ProfileSubPage>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Notifications — Fairshake" },
];
