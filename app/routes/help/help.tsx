import { Link, href } from "react-router";
import { PublicPage } from "~/components/page-frames";
import type { Route } from "./+types/help";
import { metaT, Rich, useT, type MessageKey } from "~/components/i18n";

// Help & Support: public and JavaScript-free, like /help/fees.
export const handle = { messages: ["header", "help"], hydrate: false };

const FAQ: readonly (readonly [MessageKey, MessageKey])[] = [
  ["help.joinQ", "help.joinA"],
  ["help.winnerQ", "help.winnerA"],
  ["help.paysQ", "help.paysA"],
  ["help.friendQ", "help.friendA"],
  ["help.profileQ", "help.profileA"],
  ["help.passwordQ", "help.passwordA"],
];

export default function Help() {
  const t = useT();
  return (
    <PublicPage width="xl" mainClassName="space-y-6">
      <h1 className="text-2xl font-bold">{t("help.heading")}</h1>
      <section aria-labelledby="faq-heading" className="space-y-2">
        <h2 id="faq-heading" className="text-lg font-semibold">
          {t("help.faq")}
        </h2>
        {FAQ.map(([q, a]) => (
          <details key={q} className="card">
            <summary className="cursor-pointer font-medium">{t(q)}</summary>
            <p className="mt-2 text-slate-700">{t(a)}</p>
          </details>
        ))}
      </section>
      <section aria-labelledby="contact-heading" className="card space-y-2">
        <h2 id="contact-heading" className="text-lg font-semibold">
          {t("help.contact")}
        </h2>
        <p className="text-slate-700">
          <Rich
            text={t("help.writeTo", { address: "support@fairshake.app" })}
            tags={{
              mail: (address) => (
                <a
                  className="font-medium underline"
                  href="mailto:support@fairshake.app"
                >
                  {address}
                </a>
              ),
            }}
          />
        </p>
        <p>
          <Link to={href("/help/fees")} className="underline">
            {t("help.feesLink")}
          </Link>
        </p>
      </section>
      <p>
        <Link to={href("/profile")} className="btn-secondary">
          {t("help.back")}
        </Link>
      </p>
    </PublicPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("help.pageTitle") },
];
