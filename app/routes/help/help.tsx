import { Link, href } from "react-router";
import { PublicPage } from "~/components/page-frames";
import type { Route } from "./+types/help";

// Help & Support: public and JavaScript-free, like /help/fees.
export const handle = { messages: ["header"], hydrate: false };

const FAQ = [
  [
    "How do I join a friend's bet?",
    "Open the link they sent you, or enter the 6-character code under Discover. Only two people can be in a bet.",
  ],
  [
    "How is the winner decided?",
    "Either of you proposes the winner and the other approves. Nobody wins on their own word.",
  ],
  [
    "Who pays, and how much?",
    "The loser pays the bet amount by card. The winner receives it minus a 2.5% platform fee.",
  ],
  [
    "How do I add a friend?",
    "Go to Friends, choose Add, search for their username and send a request. They accept it from their Requests tab.",
  ],
  [
    "How do I change my username or picture?",
    "Open your profile and tap your picture to edit your details or upload a new picture (PNG, JPEG, WebP or GIF, up to 2 MB).",
  ],
  [
    "I forgot my password.",
    "Choose 'Forgot password' on the login page and enter your username or email: we mail you a link to choose a new one. It works for an hour.",
  ],
] as const;

export default function Help() {
  return (
    <PublicPage width="xl" mainClassName="space-y-6">
      <h1 className="text-2xl font-bold">Help &amp; Support</h1>
      <section aria-labelledby="faq-heading" className="space-y-2">
        <h2 id="faq-heading" className="text-lg font-semibold">
          Frequently asked questions
        </h2>
        {FAQ.map(([q, a]) => (
          <details key={q} className="card">
            <summary className="cursor-pointer font-medium">{q}</summary>
            <p className="mt-2 text-slate-700">{a}</p>
          </details>
        ))}
      </section>
      <section aria-labelledby="contact-heading" className="card space-y-2">
        <h2 id="contact-heading" className="text-lg font-semibold">
          Contact us
        </h2>
        <p className="text-slate-700">
          Write to{" "}
          <a
            className="font-medium underline"
            href="mailto:support@fairshake.app"
          >
            support@fairshake.app
          </a>
          . We answer within two working days.
        </p>
        <p>
          <Link to={href("/help/fees")} className="underline">
            Platform fees explained
          </Link>
        </p>
      </section>
      <p>
        <Link to={href("/profile")} className="btn-secondary">
          Back to profile
        </Link>
      </p>
    </PublicPage>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Help & Support · Fairshake" },
];
