import { Link, redirect, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import type { Route } from "./+types/edit";
import {
  EditProfileForms,
  type ProfileFormResult,
} from "~/components/profile/edit-profile-forms";
import {
  AVATAR_BODY_LIMIT,
  AVATAR_MAX_BYTES,
  AVATAR_MESSAGES,
} from "~/models/accounts/avatar-rules";
import { saveAvatar } from "~/models/accounts/avatar.server";
import {
  profileFormUser,
  updateProfile,
} from "~/models/accounts/profile.server";
import { DomainError } from "~/utils/errors";
import { formFailure } from "~/framework/page.server";
import { requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import type { RouteTraits } from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";
import { metaT, useT } from "~/components/i18n";
import { serverT } from "~/framework/catalogs.server";
import { pageLanguage } from "~/framework/language.server";
import { readUploadedFile } from "~/framework/upload.server";
import { readFormData } from "~/framework/form-data.server";

// The server reads an upload within this limit before the action runs; an
// edit made while the network is gone waits on the device (a photo never).
export const handle: RouteTraits<MessageKey> = {
  messages: ["editProfile", "upload"],
  offline: { label: "kept.editProfile" },
  bodyLimit: { bytes: AVATAR_BODY_LIMIT, message: AVATAR_MESSAGES.tooLarge },
};

// Edit Profile as a page: the dialog's server-rendered fallback (docs/product-rules.md#forms-and-messages)
// and the target of both of its forms.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  return { user: profileFormUser(user) };
}

const updated = (t: ReturnType<typeof serverT>) => ({
  title: t("editProfile.toastTitle"),
  description: t("editProfile.toast"),
});

function failure(
  t: ReturnType<typeof serverT>,
  form: ProfileFormResult["form"],
  error: unknown,
  values?: ProfileFormResult["values"],
) {
  return formFailure(
    error,
    (refusal) =>
      refusal.status === 400 && refusal.fieldErrors
        ? t("editProfile.invalid")
        : t("editProfile.failed"),
    { form, values },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const type = request.headers.get("Content-Type") ?? "";
  const t = serverT(pageLanguage(request, user.language));

  if (type.toLowerCase().startsWith("multipart/form-data")) {
    try {
      const bytes = await readUploadedFile(request, "avatar");
      if (!bytes)
        return failure(
          t,
          "avatar",
          new DomainError(400, AVATAR_MESSAGES.missing),
        );
      if (bytes.byteLength > AVATAR_MAX_BYTES)
        return failure(
          t,
          "avatar",
          new DomainError(413, AVATAR_MESSAGES.tooLarge),
        );
      await saveAvatar({ userId: user.id, bytes });
      return redirectWithToast(href("/profile"), updated(t));
    } catch (error) {
      return failure(t, "avatar", error);
    }
  }

  const form = await readFormData(request);
  const values = {
    username: String(form.get("username") ?? ""),
    email: String(form.get("email") ?? ""),
    avatarUrl: String(form.get("avatarUrl") ?? ""),
    // New bets' currency (docs/product-rules.md#currencies); a form without the select keeps it.
    ...(form.has("currency") ? { currency: String(form.get("currency")) } : {}),
  };
  try {
    const { changed } = await updateProfile({
      userId: user.id,
      // Asked for only when the address changes; never sent back.
      input: { ...values, currentPassword: form.get("currentPassword") },
    });
    // No change just closes the dialog (docs/product-rules.md#forms-and-messages).
    if (changed.length === 0) return redirect(href("/profile"));
    return redirectWithToast(href("/profile"), updated(t));
  } catch (error) {
    return failure(t, "profile", error, values);
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function EditProfile({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="mx-auto max-w-md space-y-4">
      <Link to={href("/profile")} className="btn-secondary">
        {t("editProfile.back")}
      </Link>
      <h1 className="text-2xl font-bold">{t("editProfile.heading")}</h1>
      <EditProfileForms
        user={loaderData.user}
        result={actionData as ProfileFormResult | undefined}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("editProfile.pageTitle") },
];
