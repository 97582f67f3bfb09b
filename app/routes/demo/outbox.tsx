import { data } from "react-router";
import { PublicPage } from "~/components/page-frames";
import type { Route } from "./+types/outbox";
import { demoOutboxFor } from "~/models/notifications/demo-outbox.server";
import { getUser } from "~/models/accounts/session.server";
import { isDemoMode } from "~/utils/env.server";

// /demo/outbox: in demo mode without SMTP_URL, the mail the app would have
// sent, newest first, so a person trying the demo can read it and follow its
// links (a verification, a result waiting for them). Only mail about the
// accounts this browser has been signed in to: another person's reset or
// verification link is never shown (docs/decisions/0970-demo-outbox-per-browser.md). 404 outside demo
// mode. No JavaScript.
export const handle = { messages: ["header"], hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!isDemoMode) throw data("Not found", { status: 404 });
  const user = await getUser({ request, context });
  return {
    signedIn: user !== null,
    mails: (
      await demoOutboxFor(request.headers.get("Cookie"), user?.id ?? null)
    ).map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      at: m.createdAt.toISOString(),
    })),
  };
}

/** The text part with its web addresses as links. */
function MailText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return (
    <p className="whitespace-pre-wrap break-words text-sm text-slate-800">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part} className="text-brand-700 underline">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </p>
  );
}

export default function DemoOutbox({ loaderData }: Route.ComponentProps) {
  return (
    <PublicPage width="xl" mainClassName="space-y-4">
      <h1 className="text-2xl font-bold">Demo outbox</h1>
      <p className="text-slate-700">
        This demo sends no real mail. Here is what it would have sent to the
        accounts this browser has been signed in to, newest first.
      </p>
      {loaderData.mails.length === 0 ? (
        <p className="card">
          {loaderData.signedIn
            ? "Nothing has been sent yet."
            : "Nothing to show: sign in or sign up in this browser to see the mail about your account."}
        </p>
      ) : (
        <ul className="space-y-3">
          {loaderData.mails.map((m) => (
            <li key={m.id} className="card space-y-2">
              <h2 className="font-semibold">{m.subject}</h2>
              <p className="text-xs text-slate-600">
                To {m.to} · <time dateTime={m.at}>{m.at}</time>
              </p>
              <MailText text={m.text} />
            </li>
          ))}
        </ul>
      )}
    </PublicPage>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Demo outbox — Fairshake" },
];
