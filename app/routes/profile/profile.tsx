import { useCallback, useState } from "react";
import { Form, Link, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { metaT, useT } from "~/components/i18n";
import { serverT } from "~/framework/catalogs.server";
import { pageLanguage } from "~/framework/language.server";
import { intlLocale } from "~/domain/language";
import { paymentRecordText } from "~/domain/payment-record-text";
import { LanguagePicker } from "~/components/language-picker";
import type { Route } from "./+types/profile";
import { EditProfileForms } from "~/components/profile/edit-profile-forms";
import { ModalDialog } from "~/components/modal-dialog";
import { UserAvatar } from "~/components/user-avatar";
import { listFriends } from "~/models/social/friend-lists.server";
import {
  PAYMENT_METHOD_LABELS,
  paymentMethodsOf,
  profileFormUser,
  setPaymentMethod,
  type PaymentMethod,
} from "~/models/accounts/profile.server";
import { formFailure } from "~/framework/page.server";
import { requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import { invalid } from "~/utils/errors";
import { readFormData } from "~/framework/form-data.server";
import { getPaymentRecord } from "~/models/payments/dues.server";
import type { RouteTraits } from "~/domain/route-traits";

// The email change needs the password: never kept.
export const handle: RouteTraits = {
  messages: [
    "profile",
    "language",
    "account",
    "record",
    "editProfile",
    "upload",
    "dialog",
  ],
  offline: false,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const language = pageLanguage(request, user.language);
  const t = serverT(language);
  return {
    user: {
      ...profileFormUser(user),
      memberSince: new Intl.DateTimeFormat(intlLocale(language), {
        month: "long",
        year: "numeric",
      }).format(user.createdAt),
      wins: user.winCount,
      losses: user.lossCount,
      paymentRecord: paymentRecordText(t, await getPaymentRecord(user.id)),
    },
    // Names stay names; a card is a word.
    methods: paymentMethodsOf(user).map((m) =>
      m.method === "card" ? { ...m, label: t("account.card") } : m,
    ),
    records: (await listFriends(user.id))
      .filter((f) => f.headToHead.wins + f.headToHead.losses > 0)
      .map((f) => ({ username: f.friend.username, ...f.headToHead })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  const t = serverT(pageLanguage(request, user.language));
  if (form.get("intent") !== "payment-method")
    return formFailure(invalid("Unknown action"), t("account.error"));
  try {
    const method = String(form.get("method") ?? "");
    const connected = form.get("connected") === "true";
    await setPaymentMethod({ userId: user.id, input: { method, connected } });
    const label =
      method === "card"
        ? t("account.card")
        : PAYMENT_METHOD_LABELS[method as PaymentMethod];
    return redirectWithToast(href("/profile"), {
      title: t("account.methodToastTitle"),
      description: connected
        ? t("account.methodConnected", { method: label })
        : t("account.methodDisconnected", { method: label }),
    });
  } catch (error) {
    return formFailure(error, t("account.methodFailed"));
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function Profile({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { user, methods, records } = loaderData;
  const [editing, setEditing] = useState(false);
  const [session, setSession] = useState(0);
  const open = () => {
    setSession((n) => n + 1);
    setEditing(true);
  };
  const close = useCallback(() => setEditing(false), []);
  const total = user.wins + user.losses;
  const connected = methods.filter((m) => m.connected);
  const available = methods.filter((m) => !m.connected);
  const t = useT();
  return (
    <div className="space-y-4">
      <Link to="/" className="btn-secondary" aria-label={t("account.backHome")}>
        {t("account.back")}
      </Link>
      <section className="card flex flex-col items-center gap-2 text-center">
        {/* A link to the edit page; with JavaScript it opens the dialog. */}
        <Link
          to={href("/profile/edit")}
          className="rounded-full"
          onClick={(event) => {
            event.preventDefault();
            open();
          }}
        >
          {/* Named by its words, as the header's link (label in name). */}
          <span className="sr-only">{t("editProfile.heading")}</span>
          <UserAvatar
            username={user.username}
            avatarUrl={user.avatarUrl}
            size="lg"
          />
        </Link>
        <h1 className="text-2xl font-bold">{user.username}</h1>
        <p className="text-sm text-slate-600">
          {t("account.memberSince", { date: user.memberSince })}
        </p>
        <dl className="mt-2 grid w-full grid-cols-3 gap-2">
          <Stat label={t("account.totalBets")} value={total} />
          <Stat label={t("account.wins")} value={user.wins} />
          <Stat label={t("account.losses")} value={user.losses} />
        </dl>
        <p className="text-sm text-slate-700">
          {t("account.paymentRecord", { record: user.paymentRecord })}
        </p>
      </section>

      <ProfileLanguage />

      {records.length ? (
        <section className="card" aria-labelledby="records-heading">
          <h2 id="records-heading" className="mb-2 font-semibold">
            {t("account.friendRecords")}
          </h2>
          <ul className="divide-y divide-slate-100">
            {records.map((r) => (
              <li key={r.username} className="flex justify-between py-2">
                <span>{r.username}</span>
                <span className="font-semibold">
                  {r.wins} - {r.losses}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="card" aria-labelledby="methods-heading">
        <h2 id="methods-heading" className="mb-2 font-semibold">
          {t("account.methods")}
        </h2>
        {actionData && "message" in actionData ? (
          <p role="alert" className="mb-2 text-sm text-red-700">
            <strong>{actionData.title}</strong> {actionData.message}
          </p>
        ) : null}
        {connected.length === 0 ? (
          <p className="text-sm text-slate-600">{t("account.noMethods")}</p>
        ) : (
          <ul aria-label={t("account.connectedMethods")} className="space-y-2">
            {connected.map((m) => (
              <MethodRow key={m.method} {...m} />
            ))}
          </ul>
        )}
        <h3 className="mb-2 mt-4 text-sm font-semibold text-slate-700">
          {t("account.addMethod")}
        </h3>
        <ul aria-label={t("account.availableMethods")} className="space-y-2">
          {available.map((m) => (
            <MethodRow key={m.method} {...m} />
          ))}
        </ul>
        <p className="hint">{t("account.methodsHint")}</p>
      </section>

      <nav aria-label={t("account.links")} className="card grid gap-2">
        <Link to={href("/profile/notifications")} className="btn-secondary">
          {t("account.notifications")}
        </Link>
        <Link to={href("/profile/security")} className="btn-secondary">
          {t("account.security")}
        </Link>
        <Link to={href("/profile/data")} className="btn-secondary">
          {t("account.data")}
        </Link>
        <Link to={href("/help/fees")} className="btn-secondary">
          {t("account.fees")}
        </Link>
        <Link to={href("/help")} className="btn-secondary">
          {t("account.help")}
        </Link>
        <Form method="post" action={href("/logout")}>
          <button type="submit" className="btn-danger w-full">
            {t("account.signOut")}
          </button>
        </Form>
      </nav>

      <ModalDialog
        open={editing}
        onClose={close}
        title={t("editProfile.heading")}
        description={t("account.editDescription")}
      >
        <EditProfileForms
          user={user}
          inDialog
          dialogSession={session}
          onDone={close}
        />
      </ModalDialog>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg bg-slate-50 p-2">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-xl font-bold">{value}</dd>
    </div>
  );
}

function MethodRow({
  method,
  label,
  connected,
}: {
  method: string;
  label: string;
  connected: boolean;
}) {
  const navigation = useNavigation();
  const t = useT();
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("method") === method;
  return (
    <li className="flex items-center justify-between gap-2">
      <span className="flex items-center gap-2">
        {label}
        {connected ? (
          <span className="badge bg-brand-100 text-brand-800">
            {t("account.connected")}
          </span>
        ) : null}
      </span>
      <KeyedForm method="post">
        <input type="hidden" name="intent" value="payment-method" />
        <input type="hidden" name="method" value={method} />
        <input type="hidden" name="connected" value={String(!connected)} />
        <button
          type="submit"
          className={connected ? "btn-secondary" : "btn-primary"}
          aria-label={
            connected
              ? t("account.disconnectName", { method: label })
              : t("account.connectName", { method: label })
          }
          disabled={pending}
        >
          {pending
            ? t("account.saving")
            : connected
              ? t("account.disconnect")
              : t("account.connect")}
        </button>
      </KeyedForm>
    </li>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("account.pageTitle") },
];

/** The same plain form as the footer's: pages and mail follow it (docs/product-rules.md#languages). */
function ProfileLanguage() {
  const t = useT();
  return (
    <section className="card space-y-2" aria-labelledby="language-heading">
      <h2 id="language-heading" className="font-semibold">
        {t("profile.languageHeading")}
      </h2>
      <p className="text-sm text-slate-600">{t("profile.languageHint")}</p>
      <LanguagePicker />
    </section>
  );
}
