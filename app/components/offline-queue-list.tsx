// The list of actions kept on this device, opened from the header's count:
// what, on which page, when; a waiting one can be cancelled (it is never
// sent), a refused one dismissed.
import { useEffect, useState } from "react";
import { useQueueCounts } from "~/browser/offline-queue/counts";
import { keptFor, removeKept } from "~/browser/offline-queue/kept-actions";
import type { KeptAction } from "~/browser/offline-queue/store";
import { useLanguage, useT, type MessageKey } from "~/components/i18n";
import { intlLocale } from "~/domain/language";

export default function KeptList({
  userId,
  onClose,
}: {
  userId: number;
  onClose: () => void;
}) {
  const t = useT();
  const language = useLanguage();
  const counts = useQueueCounts(userId);
  const [kept, setKept] = useState<KeptAction[] | null>(null);
  useEffect(() => {
    let current = true;
    void keptFor(userId).then((list) => {
      if (current) setKept(list);
    });
    return () => {
      current = false;
    };
  }, [userId, counts.waiting, counts.refused]);
  return (
    <section
      id="kept-actions"
      aria-label={t("offline.listLabel")}
      className="absolute right-0 top-12 z-40 w-80 max-w-[90vw] space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg"
    >
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">{t("offline.listHeading")}</h2>
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t("offline.close")}
        </button>
      </div>
      {kept === null ? null : kept.length === 0 ? (
        <p className="text-slate-600">{t("offline.nothing")}</p>
      ) : (
        <ul className="space-y-2">
          {kept.map((action) => (
            <li
              key={action.key}
              className="space-y-1 border-t border-slate-100 pt-2"
            >
              {/* A message key, said in today's language; a record kept
                  before names were keys holds the words, shown as they are. */}
              <p className="font-medium">{t(action.what as MessageKey)}</p>
              <p className="break-words text-slate-600">{action.about}</p>
              <p className="text-xs text-slate-500">
                <time dateTime={new Date(action.createdAt).toISOString()}>
                  {new Date(action.createdAt).toLocaleString(
                    intlLocale(language),
                  )}
                </time>
              </p>
              {action.state === "refused" ? (
                <p className="field-error">
                  {t("offline.refused", { message: action.message ?? "" })}
                </p>
              ) : (
                <p className="text-amber-700">{t("offline.waiting")}</p>
              )}
              <button
                type="button"
                className="btn-secondary"
                onClick={() => void removeKept(userId, action.key)}
              >
                {action.state === "refused"
                  ? t("offline.dismiss")
                  : t("offline.cancel")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
