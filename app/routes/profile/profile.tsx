import { useCallback, useState } from "react";
import { format } from "date-fns";
import { Form, Link, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { useT } from "~/components/i18n";
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
import {
  describePaymentRecord,
  getPaymentRecord,
} from "~/models/payments/dues.server";
import type { RouteTraits } from "~/domain/route-traits";

// The email change needs the password: never kept.
export const handle: RouteTraits = {
  messages: ["profile", "language"],
  offline: false,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  return {
    user: {
      ...profileFormUser(user),
      memberSince: format(user.createdAt, "MMMM yyyy"),
      wins: user.winCount,
      losses: user.lossCount,
      paymentRecord: describePaymentRecord(await getPaymentRecord(user.id)),
    },
    methods: paymentMethodsOf(user),
    records: (await listFriends(user.id))
      .filter((f) => f.headToHead.wins + f.headToHead.losses > 0)
      .map((f) => ({ username: f.friend.username, ...f.headToHead })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  if (form.get("intent") !== "payment-method")
    return formFailure(invalid("Unknown action"), "Error");
  try {
    const method = String(form.get("method") ?? "");
    const connected = form.get("connected") === "true";
    await setPaymentMethod({ userId: user.id, input: { method, connected } });
    const label = PAYMENT_METHOD_LABELS[method as PaymentMethod];
    return redirectWithToast(href("/profile"), {
      title: "Payment method updated",
      description: `${label} ${connected ? "connected" : "disconnected"}.`,
    });
  } catch (error) {
    return formFailure(error, "Failed to update payment method");
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
  return (
    <div className="space-y-4">
      <Link to="/" className="btn-secondary" aria-label="Back to home">
        ← Back
      </Link>
      <section className="card flex flex-col items-center gap-2 text-center">
        {/* A link to the edit page; with JavaScript it opens the dialog. */}
        <Link
          to={href("/profile/edit")}
          aria-label="Edit Profile"
          className="rounded-full"
          onClick={(event) => {
            event.preventDefault();
            open();
          }}
        >
          <UserAvatar
            username={user.username}
            avatarUrl={user.avatarUrl}
            size="lg"
          />
        </Link>
        <h1 className="text-2xl font-bold">{user.username}</h1>
        <p className="text-sm text-slate-600">
          Member since {user.memberSince}
        </p>
        <dl className="mt-2 grid w-full grid-cols-3 gap-2">
          <Stat label="Total Bets" value={total} />
          <Stat label="Wins" value={user.wins} />
          <Stat label="Losses" value={user.losses} />
        </dl>
        <p className="text-sm text-slate-700">
          Payment record: {user.paymentRecord}
        </p>
      </section>

      <ProfileLanguage />

      {records.length ? (
        <section className="card" aria-labelledby="records-heading">
          <h2 id="records-heading" className="mb-2 font-semibold">
            Your record with friends
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
          Payment methods
        </h2>
        {actionData && "message" in actionData ? (
          <p role="alert" className="mb-2 text-sm text-red-700">
            <strong>{actionData.title}</strong> {actionData.message}
          </p>
        ) : null}
        {connected.length === 0 ? (
          <p className="text-sm text-slate-600">
            No payment methods connected.
          </p>
        ) : (
          <ul aria-label="Connected payment methods" className="space-y-2">
            {connected.map((m) => (
              <MethodRow key={m.method} {...m} />
            ))}
          </ul>
        )}
        <h3 className="mb-2 mt-4 text-sm font-semibold text-slate-700">
          Add payment method
        </h3>
        <ul aria-label="Available payment methods" className="space-y-2">
          {available.map((m) => (
            <MethodRow key={m.method} {...m} />
          ))}
        </ul>
        <p className="hint">
          Payments in Fairshake are made by card; the other methods are saved as
          your preference for when they arrive.
        </p>
      </section>

      <nav aria-label="Help and account" className="card grid gap-2">
        <Link to={href("/profile/notifications")} className="btn-secondary">
          Notification settings
        </Link>
        <Link to={href("/profile/security")} className="btn-secondary">
          Password &amp; devices
        </Link>
        <Link to={href("/profile/data")} className="btn-secondary">
          Your data
        </Link>
        <Link to={href("/help/fees")} className="btn-secondary">
          Platform Fees
        </Link>
        <Link to={href("/help")} className="btn-secondary">
          Help &amp; Support
        </Link>
        <Form method="post" action={href("/logout")}>
          <button type="submit" className="btn-danger w-full">
            Sign Out
          </button>
        </Form>
      </nav>

      <ModalDialog
        open={editing}
        onClose={close}
        title="Edit Profile"
        description="Change your username, email or picture."
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
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("method") === method;
  return (
    <li className="flex items-center justify-between gap-2">
      <span className="flex items-center gap-2">
        {label}
        {connected ? (
          <span className="badge bg-brand-100 text-brand-800">Connected</span>
        ) : null}
      </span>
      <KeyedForm method="post">
        <input type="hidden" name="intent" value="payment-method" />
        <input type="hidden" name="method" value={method} />
        <input type="hidden" name="connected" value={String(!connected)} />
        <button
          type="submit"
          className={connected ? "btn-secondary" : "btn-primary"}
          aria-label={`${connected ? "Disconnect" : "Connect"} ${label}`}
          disabled={pending}
        >
          {pending ? "Saving..." : connected ? "Disconnect" : "Connect"}
        </button>
      </KeyedForm>
    </li>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Profile · Fairshake" },
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
