import { Form, redirect, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { ProfileSubPage } from "~/components/profile/profile-sub-page";
import type { Route } from "./+types/security";
import { FormAlert, formAlert, PasswordField } from "~/components/forms";
import {
  changePassword,
  signOutOtherSessions,
  signOutSession,
} from "~/models/accounts/account-security.server";
import { PasskeysSection } from "~/components/profile/passkeys-section";
import {
  listPasskeys,
  removePasskey,
  renamePasskey,
} from "~/models/accounts/passkeys.server";
import {
  currentSessionId,
  listSessions,
  requireUser,
} from "~/models/accounts/session.server";
import { formatDateTime } from "~/utils/dates";
import { metaT, useT } from "~/components/i18n";
import { serverT } from "~/framework/catalogs.server";
import { pageLanguage } from "~/framework/language.server";
import { intlLocale } from "~/domain/language";
import { invalid } from "~/utils/errors";
import { formFailure, pageFailure } from "~/framework/page.server";
import { readFormData } from "~/framework/form-data.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { redirectWithToast } from "~/framework/toast.server";
import { describeUserAgent } from "~/utils/user-agent";
import type { RouteTraits } from "~/domain/route-traits";

// Passwords, sessions and passkeys never wait on the device.
export const handle: RouteTraits = {
  messages: ["header", "subPage", "security", "passkeys"],
  offline: false,
};

// /profile/security (docs/product-rules.md#accounts): change the password, see where you are
// signed in, sign one device or every other one out, and the passkeys
// (docs/product-rules.md#passkeys). Plain forms: all of it works without
// JavaScript, except adding a passkey, which needs WebAuthn and is shown
// only where the browser has it.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const timeZone = readTimeZone(request);
  const language = pageLanguage(request, user.language);
  const t = serverT(language);
  const locale = intlLocale(language);
  const when = (at: Date) => formatDateTime(at, timeZone, locale);
  const words = {
    on: (browser: string, system: string) =>
      t("security.browserOn", { browser, system }),
    browserOn: (system: string) => t("security.someBrowserOn", { system }),
    unknown: t("security.unknownDevice"),
  };
  const sessions = (
    await listSessions(user.id, await currentSessionId(request))
  ).map((s) => ({
    id: s.id,
    device: describeUserAgent(s.userAgent, words),
    createdAt: when(s.createdAt),
    lastSeenAt: when(s.lastSeenAt),
    current: s.current,
  }));
  const passkeys = (await listPasskeys(user.id)).map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: when(p.createdAt),
    lastUsedAt: p.lastUsedAt ? when(p.lastUsedAt) : null,
  }));
  return { sessions, passkeys };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  const intent = form.get("intent");
  const here = href("/profile/security");
  const t = serverT(pageLanguage(request, user.language));

  if (intent === "change-password") {
    const newPassword = form.get("newPassword");
    if (
      typeof newPassword === "string" &&
      newPassword !== form.get("confirmPassword")
    )
      return formFailure(
        invalid(t("security.mismatch"), {
          confirmPassword: [t("security.mismatch")],
        }),
        t("security.pleaseWait"),
      );
    try {
      await changePassword({
        user,
        input: {
          currentPassword: form.get("currentPassword") ?? undefined,
          newPassword: newPassword ?? undefined,
        },
        keepSessionId: await currentSessionId(request),
      });
    } catch (error) {
      return formFailure(error, t("security.pleaseWait"));
    }
    return redirectWithToast(here, {
      title: t("security.changedTitle"),
      description: t("security.changed"),
    });
  }

  if (intent === "revoke") {
    try {
      await signOutSession(user.id, form.get("sessionId"));
    } catch (error) {
      pageFailure(error); // anything but a refusal is a bug: rethrown
      return redirectWithToast(here, {
        title: t("security.alreadyOutTitle"),
        description: t("security.alreadyOut"),
        type: "error",
      });
    }
    return redirectWithToast(here, {
      title: t("security.deviceOutTitle"),
      description: t("security.deviceOut"),
    });
  }

  if (intent === "rename-passkey") {
    try {
      await renamePasskey(user.id, form.get("passkeyId"), form.get("name"));
    } catch (error) {
      return formFailure(error, t("passkeys.renameFailed"));
    }
    return redirectWithToast(here, { title: t("passkeys.renamed") });
  }

  if (intent === "remove-passkey") {
    try {
      await removePasskey(user.id, form.get("passkeyId"));
    } catch (error) {
      pageFailure(error);
      return redirectWithToast(here, {
        title: t("passkeys.alreadyRemovedTitle"),
        description: t("passkeys.alreadyRemoved"),
        type: "error",
      });
    }
    return redirectWithToast(here, {
      title: t("passkeys.removedTitle"),
      description: t("passkeys.removed"),
    });
  }

  if (intent === "revoke-others") {
    const ended = await signOutOtherSessions(
      user.id,
      await currentSessionId(request),
    );
    return redirectWithToast(here, {
      title: t("security.othersOutTitle"),
      description: t("security.othersOut", { count: ended }),
    });
  }

  throw redirect(here);
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function Security({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { sessions, passkeys } = loaderData;
  const busy = useNavigation().state === "submitting";
  const errors = actionData?.fieldErrors ?? {};
  const others = sessions.filter((s) => !s.current).length;
  const t = useT();
  return (
    <ProfileSubPage title={t("security.heading")}>
      <section className="card space-y-3" aria-labelledby="password-heading">
        <h2 id="password-heading" className="text-lg font-semibold">
          {t("security.changeHeading")}
        </h2>
        <KeyedForm
          method="post"
          className="space-y-4"
          aria-label={t("security.changeHeading")}
        >
          <input type="hidden" name="intent" value="change-password" />
          <FormAlert
            title={t("security.pleaseWait")}
            message={formAlert(actionData)}
          />
          <PasswordField
            label={t("security.current")}
            name="currentPassword"
            id="current-password"
            errors={errors.currentPassword}
          />
          <PasswordField
            label={t("security.new")}
            name="newPassword"
            id="new-password"
            errors={errors.newPassword}
            isNew
          />
          <PasswordField
            label={t("security.confirm")}
            name="confirmPassword"
            id="confirm-new-password"
            errors={errors.confirmPassword}
            isNew
          />
          <p className="hint">{t("security.othersWillGo")}</p>
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {t("security.changeSubmit")}
          </button>
        </KeyedForm>
      </section>

      <section className="card space-y-3" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading" className="text-lg font-semibold">
          {t("security.sessionsHeading")}
        </h2>
        <ul
          className="divide-y divide-slate-200"
          aria-label={t("security.devices")}
        >
          {sessions.map((s) => (
            <li
              key={s.id}
              className="flex items-center justify-between gap-3 py-3"
            >
              <div className="text-sm">
                <p className="font-medium">
                  {s.device}
                  {s.current ? (
                    <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-xs text-brand-700">
                      {t("security.thisDevice")}
                    </span>
                  ) : null}
                </p>
                <p className="text-slate-600">
                  {t("security.seen", {
                    since: s.createdAt,
                    last: s.lastSeenAt,
                  })}
                </p>
              </div>
              {s.current ? (
                <Form method="post" action={href("/logout")}>
                  <button
                    type="submit"
                    className="btn-secondary"
                    aria-label={t("security.signOutThis", { device: s.device })}
                  >
                    {t("security.signOut")}
                  </button>
                </Form>
              ) : (
                <KeyedForm method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="sessionId" value={s.id} />
                  <button
                    type="submit"
                    className="btn-secondary"
                    aria-label={t("security.signOutOther", {
                      device: s.device,
                      last: s.lastSeenAt,
                    })}
                  >
                    {t("security.signOut")}
                  </button>
                </KeyedForm>
              )}
            </li>
          ))}
        </ul>
        {others > 0 ? (
          <KeyedForm method="post">
            <input type="hidden" name="intent" value="revoke-others" />
            <button type="submit" className="btn-danger w-full">
              {t("security.signOutOthers")}
            </button>
          </KeyedForm>
        ) : (
          <p className="hint">{t("security.onlyThis")}</p>
        )}
      </section>
      <PasskeysSection passkeys={passkeys} />
    </ProfileSubPage>
  );
}

/**
 * Adding a passkey: WebAuthn needs JavaScript, so this is shown only once
 * the page runs where the browser has `PublicKeyCredential`. The library
 * is fetched when the button is pressed.
 */
export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("security.pageTitle") },
];
