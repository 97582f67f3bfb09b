// Edit Profile: the details form (username, email, avatar URL) and the
// picture upload. On /profile/edit they are plain forms (no JavaScript
// needed); inside the dialog on /profile they post through fetchers so a
// refusal shows in the dialog and success closes it.
import { CURRENCIES } from "~/domain/currency";
import { useEffect, useRef } from "react";
import { Form, useFetcher, useNavigation, href } from "react-router";
import {
  IdempotencyKeyField,
  NotSentNotice,
  useOwnedFormKey,
} from "~/components/keyed-form";
import { ErrorList, Field } from "~/components/forms";
import { FilePicker } from "~/components/file-picker";
import { useT, type MessageKey } from "~/components/i18n";

export const EDIT_PROFILE_ACTION = href("/profile/edit");
const AVATAR_MAX = 2 * 1024 * 1024;

export type ProfileFormResult = {
  ok: false;
  form: "profile" | "avatar";
  status: number;
  title: string;
  message: string;
  fieldErrors: Record<string, string[]>;
  values?: {
    username: string;
    email: string;
    avatarUrl: string;
    currency?: string;
  };
};

const FIELD_LABELS: Record<string, MessageKey> = {
  username: "editProfile.username",
  email: "editProfile.email",
  currentPassword: "editProfile.currentPassword",
  avatarUrl: "editProfile.avatarUrl",
  currency: "editProfile.currency",
};

export function EditProfileForms({
  user,
  result,
  inDialog = false,
  dialogSession = 0,
  onDone,
}: {
  user: {
    username: string;
    email: string;
    avatarUrl: string | null;
    currency?: string;
  };
  result?: ProfileFormResult | null;
  inDialog?: boolean;
  /** Changes each time the dialog opens, so old refusals are not shown again. */
  dialogSession?: number;
  onDone?: () => void;
}) {
  const details = useFetcher<ProfileFormResult>({
    key: `edit-profile-${dialogSession}`,
  });
  const upload = useFetcher<ProfileFormResult>({
    key: `upload-avatar-${dialogSession}`,
  });
  const navigation = useNavigation();
  const t = useT();
  const detailsKey = useOwnedFormKey(inDialog ? details : navigation);
  const uploadKey = useOwnedFormKey(inDialog ? upload : navigation);
  const DetailsForm = inDialog ? details.Form : Form;
  const UploadForm = inDialog ? upload.Form : Form;

  const detailsResult = inDialog
    ? details.data
    : result?.form === "profile"
      ? result
      : undefined;
  const uploadResult = inDialog
    ? upload.data
    : result?.form === "avatar"
      ? result
      : undefined;

  useCloseWhenDone(details.state, details.data, onDone);
  useCloseWhenDone(upload.state, upload.data, onDone);

  const pendingIntent = inDialog
    ? details.state !== "idle"
      ? "profile"
      : upload.state !== "idle"
        ? "avatar"
        : null
    : navigation.state === "submitting"
      ? navigation.formAction === EDIT_PROFILE_ACTION &&
        navigation.formEncType === "multipart/form-data"
        ? "avatar"
        : "profile"
      : null;

  const values = detailsResult?.values ?? {
    username: user.username,
    email: user.email,
    avatarUrl: user.avatarUrl ?? "",
    currency: user.currency,
  };
  const errors = detailsResult?.fieldErrors ?? {};
  return (
    <div className="space-y-6">
      <DetailsForm
        method="post"
        action={EDIT_PROFILE_ACTION}
        className="space-y-4"
        aria-label={t("editProfile.details")}
        key={JSON.stringify(values)}
      >
        <IdempotencyKeyField value={detailsKey} />
        {detailsResult ? <Failure result={detailsResult} /> : null}
        <Field
          label={t("editProfile.username")}
          errors={errors.username}
          inputProps={{
            name: "username",
            defaultValue: values.username,
            required: true,
            minLength: 3,
            maxLength: 50,
            autoComplete: "username",
            autoCapitalize: "none",
          }}
        />
        <Field
          label={t("editProfile.email")}
          errors={errors.email}
          inputProps={{
            name: "email",
            type: "email",
            defaultValue: values.email,
            required: true,
            autoComplete: "email",
          }}
        />
        <Field
          label={t("editProfile.currentPassword")}
          hint={t("editProfile.currentPasswordHint")}
          errors={errors.currentPassword}
          inputProps={{
            name: "currentPassword",
            type: "password",
            autoComplete: "current-password",
          }}
        />
        <Field
          label={t("editProfile.avatarUrl")}
          hint={t("editProfile.avatarUrlHint")}
          errors={errors.avatarUrl}
          inputProps={{
            name: "avatarUrl",
            type: "url",
            defaultValue: values.avatarUrl,
            maxLength: 2048,
            placeholder: "https://",
          }}
        />
        {values.currency ? (
          <div>
            <label htmlFor="profile-currency" className="label">
              {t("editProfile.currency")}
            </label>
            <select
              id="profile-currency"
              name="currency"
              className="input"
              defaultValue={values.currency}
            >
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <ErrorList errors={errors.currency} />
          </div>
        ) : null}
        <button type="submit" className="btn-primary w-full">
          {pendingIntent === "profile"
            ? t("editProfile.saving")
            : t("editProfile.save")}
        </button>
        <NotSentNotice formKey={detailsKey} />
      </DetailsForm>

      <UploadForm
        method="post"
        action={EDIT_PROFILE_ACTION}
        encType="multipart/form-data"
        className="space-y-3 border-t border-slate-200 pt-4"
        aria-label={t("editProfile.upload")}
      >
        <IdempotencyKeyField value={uploadKey} />
        {uploadResult ? <Failure result={uploadResult} /> : null}
        <FilePicker
          name="avatar"
          label={t("editProfile.upload")}
          accept="image/png,image/jpeg,image/webp,image/gif"
          maxSize={AVATAR_MAX}
          hint={t("editProfile.uploadHint")}
        />
        <button type="submit" className="btn-secondary w-full">
          {pendingIntent === "avatar"
            ? t("editProfile.uploading")
            : t("editProfile.uploadSubmit")}
        </button>
        <NotSentNotice formKey={uploadKey} />
      </UploadForm>
    </div>
  );
}

function Failure({ result }: { result: ProfileFormResult }) {
  const t = useT();
  const entries = Object.entries(result.fieldErrors);
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      <p className="font-semibold">{result.title}</p>
      {entries.length ? (
        <ul className="list-inside list-disc">
          {entries.map(([field, messages]) =>
            messages.map((m) => (
              <li key={field + m}>
                {FIELD_LABELS[field] ? t(FIELD_LABELS[field]) : field}: {m}
              </li>
            )),
          )}
        </ul>
      ) : (
        <p>{result.message}</p>
      )}
    </div>
  );
}

/**
 * Calls onDone when a fetcher's submission ends without a new refusal: it
 * redirected (a redirect leaves the previous data in place, so compare).
 */
function useCloseWhenDone(
  state: string,
  data: ProfileFormResult | undefined,
  onDone?: () => void,
) {
  const before = useRef<{ data: ProfileFormResult | undefined } | null>(null);
  useEffect(() => {
    if (state !== "idle") {
      before.current ??= { data };
      return;
    }
    if (before.current) {
      const unchanged = before.current.data === data;
      before.current = null;
      if (unchanged || !data || data.ok !== false) onDone?.();
    }
  }, [state, data, onDone]);
}
