import { Link, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { ProfileSubPage } from "~/components/page-frames";
import type { Route } from "./+types/data";
import { FormAlert, PasswordField } from "~/components/forms";
import { closeAccount, listOpenBets } from "~/models/accounts/account.server";
import { endSession, requireUser } from "~/models/accounts/session.server";
import { invalid } from "~/utils/errors";
import { readFormData } from "~/framework/form-data.server";
import { formFailure } from "~/framework/page.server";
import { redirectWithToast } from "~/framework/toast.server";
import type { RouteTraits } from "~/domain/route-traits";

// /profile/data (docs/product-rules.md#your-data): download everything of yours as JSON (a plain
// link to GET /api/user/export), and close the account. Both work without
// JavaScript.
const CONFIRM_REQUIRED =
  "Tick the box to confirm that you want to delete your account.";

// Account data (export, closing) never waits on the device.
export const handle: RouteTraits = { messages: ["header"], offline: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  return { openBets: await listOpenBets(user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  try {
    if (form.get("intent") !== "delete-account")
      throw invalid("Unknown action.");
    if (form.get("confirm") !== "yes")
      throw invalid(CONFIRM_REQUIRED, { confirm: [CONFIRM_REQUIRED] });
    const password = form.get("password");
    await closeAccount({
      userId: user.id,
      input: { password: typeof password === "string" ? password : undefined },
    });
  } catch (error) {
    return formFailure(error, "Your account was not deleted");
  }
  // Signed out, to the visitor's front door (as Sign Out does).
  return redirectWithToast(
    href("/auth"),
    {
      title: "Your account has been deleted",
      description:
        "Your bets stay in the other side's history as 'Deleted user'.",
    },
    { headers: { "Set-Cookie": await endSession(request) } },
  );
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function YourData({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { openBets } = loaderData;
  const deleting = useNavigation().state === "submitting";
  return (
    <ProfileSubPage title="Your data">
      <section className="card space-y-2" aria-labelledby="export-heading">
        <h2 id="export-heading" className="text-lg font-semibold">
          Download your data
        </h2>
        <p className="text-sm text-slate-600">
          One JSON file with your profile, bets, settlements, payments, ledger
          entries, friends, activity, notification settings and signed-in
          devices. It holds no one else&apos;s email address and no passwords or
          keys.
        </p>
        <a href="/api/user/export" download className="btn-primary w-full">
          Download my data
        </a>
      </section>

      <section
        className="card space-y-3 border-red-200"
        aria-labelledby="delete-heading"
      >
        <h2 id="delete-heading" className="text-lg font-semibold">
          Delete your account
        </h2>
        <p className="text-sm text-slate-600">
          Your name, email, picture, password, friends, devices and settings are
          removed at once, and this cannot be undone. Bets, settlements and
          payments stay, because they are the other side&apos;s history too:
          there you appear as &lsquo;Deleted user&rsquo;.
        </p>
        {openBets.length > 0 ? (
          <div className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            <p>Finish, cancel or pay your open bets first. Still open:</p>
            <ul className="mt-1 list-disc pl-5">
              {openBets.map((bet) => (
                <li key={bet.id}>
                  <Link
                    to={href("/bet/:id", { id: String(bet.id) })}
                    className="underline"
                  >
                    {bet.title}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <FormAlert title={actionData?.title} message={actionData?.message} />
        <KeyedForm method="post" className="space-y-3">
          <input type="hidden" name="intent" value="delete-account" />
          <PasswordField
            label="Your password"
            name="password"
            errors={actionData?.fieldErrors?.password}
          />
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="confirm"
                value="yes"
                required
                className="mt-0.5 h-5 w-5"
              />
              <span>
                I understand that my account will be deleted for good.
              </span>
            </label>
            {actionData?.fieldErrors?.confirm ? (
              <p className="field-error">{actionData.fieldErrors.confirm[0]}</p>
            ) : null}
          </div>
          <button
            type="submit"
            className="btn-danger w-full"
            disabled={deleting}
          >
            {deleting ? "Deleting..." : "Delete my account"}
          </button>
        </KeyedForm>
      </section>
    </ProfileSubPage>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Your data — Fairshake" },
];
