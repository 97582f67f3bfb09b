// The share panel: preview image, QR code of the join link, and a share
// disclosure of plain intent links (docs/product-rules.md#forms-and-messages). JavaScript adds copy buttons
// and the browser's share sheet; without it the link is selectable text.
import { useState } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { useT } from "~/components/i18n";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const hydrated = useHydrated();
  const t = useT();
  const [copied, setCopied] = useState(false);
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="btn-secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      {copied ? t("bet.copied") : label}
    </button>
  );
}

export function SharePanel({
  title,
  shareUrl,
  imageUrl,
  joinUrl,
  qrSvg,
}: {
  title: string;
  shareUrl: string;
  imageUrl: string;
  joinUrl: string;
  qrSvg: string;
}) {
  const hydrated = useHydrated();
  const [imageFailed, setImageFailed] = useState(false);
  const t = useT();
  const text = t("share.text", { title });
  const enc = encodeURIComponent;
  const canShare =
    hydrated && typeof navigator !== "undefined" && "share" in navigator;
  return (
    <section className="card space-y-4" aria-labelledby="share-heading">
      <h2 id="share-heading" className="font-semibold">
        {t("share.heading")}
      </h2>
      <div className="overflow-hidden rounded-lg border border-slate-200 bg-slate-100">
        {imageFailed ? (
          <p className="p-6 text-center text-sm text-slate-600">
            {t("share.noPreview")}
          </p>
        ) : (
          <img
            src={imageUrl}
            alt={t("share.noPreview")}
            width={720}
            height={378}
            // In view on a phone's first screen, often the largest thing
            // painted: fetched at once, not after layout (docs/decisions/archive/0800-first-visit-paints-from-the-html.md).
            fetchPriority="high"
            className="h-auto w-full"
            onError={() => setImageFailed(true)}
          />
        )}
      </div>
      <figure className="flex flex-col items-center gap-2">
        <div
          className="size-44 bg-white p-1"
          role="img"
          aria-label={t("share.qr", { url: joinUrl })}
          // The qrcode library's own SVG output: paths only, no user text.
          dangerouslySetInnerHTML={{ __html: qrSvg }}
        />
        <figcaption className="text-xs text-slate-600">
          {t("share.scan", { url: joinUrl })}
        </figcaption>
      </figure>
      <details className="rounded-lg border border-slate-200">
        <summary className="flex min-h-11 cursor-pointer items-center px-3 font-medium">
          {t("share.options")}
        </summary>
        <div className="space-y-2 p-3 pt-0">
          <ul className="grid grid-cols-2 gap-2">
            <li>
              <a
                className="btn-secondary w-full"
                href={`https://twitter.com/intent/tweet?text=${enc(text)}&url=${enc(shareUrl)}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                {t("share.x")}
              </a>
            </li>
            <li>
              <a
                className="btn-secondary w-full"
                href={`https://www.facebook.com/sharer/sharer.php?u=${enc(shareUrl)}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                Facebook
              </a>
            </li>
            <li>
              <a
                className="btn-secondary w-full"
                href={`https://wa.me/?text=${enc(`${text} ${shareUrl}`)}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                WhatsApp
              </a>
            </li>
            <li>
              {canShare ? (
                <button
                  type="button"
                  className="btn-secondary w-full"
                  onClick={() => {
                    void navigator
                      .share({ title, text, url: shareUrl })
                      .catch(() => {});
                  }}
                >
                  Instagram
                </button>
              ) : (
                <p className="flex min-h-11 items-center text-xs text-slate-600">
                  {t("share.instagram")}
                </p>
              )}
            </li>
          </ul>
          <label htmlFor="share-link" className="label">
            {t("share.link")}
          </label>
          <input
            id="share-link"
            className="input select-all"
            readOnly
            value={shareUrl}
          />
          <CopyButton text={shareUrl} label={t("share.copyLink")} />
        </div>
      </details>
    </section>
  );
}
