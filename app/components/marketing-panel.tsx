// What Fairshake promises, beside the sign-in and registration forms on /auth.
import { useT } from "~/components/i18n";

export function MarketingPanel() {
  const t = useT();
  const promises = [
    [t("signIn.promoSafe"), t("signIn.promoSafeText")],
    [t("signIn.promoAnything"), t("signIn.promoAnythingText")],
    [t("signIn.promoSharing"), t("signIn.promoSharingText")],
    [t("signIn.promoFair"), t("signIn.promoFairText")],
  ];
  return (
    <aside
      className="hidden flex-col justify-center bg-brand-800 p-12 text-white lg:flex"
      aria-label={t("signIn.about")}
    >
      <h2 className="mb-8 text-4xl font-bold">{t("signIn.promoTitle")}</h2>
      <ul className="space-y-6">
        {promises.map(([title, text]) => (
          <li key={title}>
            <p className="text-lg font-semibold">{title}</p>
            <p className="text-brand-100">{text}</p>
          </li>
        ))}
      </ul>
    </aside>
  );
}
