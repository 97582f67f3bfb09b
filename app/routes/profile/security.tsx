import { Form, redirect, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { ProfileSubPage } from "~/components/page-frames";
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
import { invalid } from "~/utils/errors";
import { formFailure, pageFailure } from "~/framework/page.server";
import { readFormData } from "~/framework/form-data.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { redirectWithToast } from "~/framework/toast.server";
import { describeUserAgent } from "~/utils/user-agent";
import type { RouteTraits } from "~/domain/route-traits";

// Passwords, sessions and passkeys never wait on the device.
export const handle: RouteTraits = { messages: ["header"], offline: false };

// /profile/security (docs/product-rules.md#accounts): change the password, see where you are
// signed in, sign one device or every other one out, and the passkeys
// (docs/product-rules.md#passkeys). Plain forms: all of it works without
// JavaScript, except adding a passkey, which needs WebAuthn and is shown
// only where the browser has it.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const timeZone = readTimeZone(request);
  const sessions = (
    await listSessions(user.id, await currentSessionId(request))
  ).map((s) => ({
    id: s.id,
    device: describeUserAgent(s.userAgent),
    createdAt: formatDateTime(s.createdAt, timeZone),
    lastSeenAt: formatDateTime(s.lastSeenAt, timeZone),
    current: s.current,
  }));
  const passkeys = (await listPasskeys(user.id)).map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: formatDateTime(p.createdAt, timeZone),
    lastUsedAt: p.lastUsedAt ? formatDateTime(p.lastUsedAt, timeZone) : null,
  }));
  return { sessions, passkeys };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  const intent = form.get("intent");
  const here = href("/profile/security");

  if (intent === "change-password") {
    const newPassword = form.get("newPassword");
    if (
      typeof newPassword === "string" &&
      newPassword !== form.get("confirmPassword")
    )
      return formFailure(
        invalid("Passwords do not match", {
          confirmPassword: ["Passwords do not match"],
        }),
        "Please wait",
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
      return formFailure(error, "Please wait");
    }
    return redirectWithToast(here, {
      title: "Password changed",
      description: "Every other device was signed out.",
    });
  }

  if (intent === "revoke") {
    try {
      await signOutSession(user.id, form.get("sessionId"));
    } catch (error) {
      pageFailure(error); // anything but a refusal is a bug: rethrown
      return redirectWithToast(here, {
        title: "Already signed out",
        description: "That device was no longer signed in.",
        type: "error",
      });
    }
    return redirectWithToast(here, {
      title: "Device signed out",
      description: "That device needs the password to get back in.",
    });
  }

  if (intent === "rename-passkey") {
    try {
      await renamePasskey(user.id, form.get("passkeyId"), form.get("name"));
    } catch (error) {
      return formFailure(error, "Could not rename");
    }
    return redirectWithToast(here, { title: "Passkey renamed" });
  }

  if (intent === "remove-passkey") {
    try {
      await removePasskey(user.id, form.get("passkeyId"));
    } catch (error) {
      pageFailure(error);
      return redirectWithToast(here, {
        title: "Already removed",
        description: "That passkey was no longer there.",
        type: "error",
      });
    }
    return redirectWithToast(here, {
      title: "Passkey removed",
      description: "It can no longer sign in to your account.",
    });
  }

  if (intent === "revoke-others") {
    const ended = await signOutOtherSessions(
      user.id,
      await currentSessionId(request),
    );
    return redirectWithToast(here, {
      title: "Signed out everywhere else",
      description:
        ended === 1
          ? "1 other device was signed out."
          : `${ended} other devices were signed out.`,
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
  return (
    <ProfileSubPage title="Security">
      <section className="card space-y-3" aria-labelledby="password-heading">
        <h2 id="password-heading" className="text-lg font-semibold">
          Change password
        </h2>
        <KeyedForm
          method="post"
          className="space-y-4"
          aria-label="Change password"
        >
          <input type="hidden" name="intent" value="change-password" />
          <FormAlert title="Please wait" message={formAlert(actionData)} />
          <PasswordField
            label="Current password"
            name="currentPassword"
            id="current-password"
            errors={errors.currentPassword}
          />
          <PasswordField
            label="New password"
            name="newPassword"
            id="new-password"
            errors={errors.newPassword}
            isNew
          />
          <PasswordField
            label="Confirm new password"
            name="confirmPassword"
            id="confirm-new-password"
            errors={errors.confirmPassword}
            isNew
          />
          <p className="hint">Every other device will be signed out.</p>
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            Change password
          </button>
        </KeyedForm>
      </section>

      <section className="card space-y-3" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Where you are signed in
        </h2>
        <ul
          className="divide-y divide-slate-200"
          aria-label="Signed-in devices"
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
                      This device
                    </span>
                  ) : null}
                </p>
                <p className="text-slate-600">
                  Signed in {s.createdAt} · last seen {s.lastSeenAt}
                </p>
              </div>
              {s.current ? (
                <Form method="post" action={href("/logout")}>
                  <button
                    type="submit"
                    className="btn-secondary"
                    aria-label={`Sign out ${s.device} (this device)`}
                  >
                    Sign out
                  </button>
                </Form>
              ) : (
                <KeyedForm method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="sessionId" value={s.id} />
                  <button
                    type="submit"
                    className="btn-secondary"
                    aria-label={`Sign out ${s.device}, last seen ${s.lastSeenAt}`}
                  >
                    Sign out
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
              Sign out everywhere else
            </button>
          </KeyedForm>
        ) : (
          <p className="hint">You are signed in on this device only.</p>
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
export const meta: Route.MetaFunction = () => [
  { title: "Security — Fairshake" },
];
