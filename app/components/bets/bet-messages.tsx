// Talk on a bet (docs/product-rules.md#messages): the conversation, oldest
// first with author and time, and the form that writes to it. The form is a
// plain POST to the bet page that comes back to the conversation; with
// JavaScript it is sent by a fetcher (no reload), kept on the phone when the
// network is gone, and a message from the other side arrives by itself
// (the bet page revalidates on its live event).
import { useEffect, useRef, useState } from "react";
import { useT } from "~/components/i18n";
import { href, useFetcher } from "react-router";
import {
  IdempotencyKeyField,
  KeyedForm,
  NotSentNotice,
  useOwnedFormKey,
} from "~/components/keyed-form";
import { ErrorList, FormAlert } from "~/components/forms";
import { unansweredState, useUnsent } from "~/browser/unsent-keys";
import { MESSAGE_MAX_CHARS } from "~/domain/messages";
import { chosenPhotos, MessagePhotosField } from "./message-photos-field";

export type MessageItem = {
  id: number;
  authorName: string;
  mine: boolean;
  body: string | null;
  at: string;
  atLabel: string;
  canDelete: boolean;
  photos: {
    id: number;
    url: string;
    thumbUrl: string;
    width: number;
    height: number;
  }[];
};

type Failure = {
  ok?: false;
  intent?: string;
  title?: string;
  message?: string;
  fieldErrors?: Record<string, string[]>;
  /** What was typed, sent back with a plain form's refusal. */
  body?: string;
};

/** The messages alone, read-only (the referee's page, approve and reject). */
export function MessagesList({
  messages,
  betId,
  deletable = false,
}: {
  messages: MessageItem[];
  betId: number;
  deletable?: boolean;
}) {
  const t = useT();
  if (messages.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="no-messages">
        {t("messages.none")}
      </p>
    );
  return (
    <ol className="space-y-2" aria-label={t("messages.list")}>
      {messages.map((m) => (
        <li
          key={m.id}
          className={`rounded-lg p-3 ${m.mine ? "bg-brand-50" : "bg-slate-50"}`}
          data-message-id={m.id}
        >
          <p className="flex flex-wrap items-baseline justify-between gap-x-2 text-xs text-slate-600">
            <span className="font-semibold text-slate-800">
              {m.authorName}
              {m.mine ? t("messages.you") : ""}
            </span>
            <time dateTime={m.at}>{m.atLabel}</time>
          </p>
          {m.body === null ? (
            <p className="text-sm italic text-slate-500">
              {t("messages.deleted")}
            </p>
          ) : (
            <p className="whitespace-pre-wrap break-words text-sm">{m.body}</p>
          )}
          {m.photos.length ? (
            <ul
              className="mt-2 flex flex-wrap gap-2"
              aria-label={t("messages.photos")}
            >
              {m.photos.map((p, i) => (
                <li key={p.id}>
                  {/* The photo on a tap: the full image, served only to the bet's people. */}
                  <a href={p.url} target="_blank" rel="noreferrer">
                    <img
                      src={p.thumbUrl}
                      alt={t("messages.photoAlt", {
                        n: i + 1,
                        name: m.authorName,
                      })}
                      width={Math.min(96, p.width)}
                      height={Math.round(
                        (Math.min(96, p.width) * p.height) / p.width,
                      )}
                      loading="lazy"
                      className="rounded border border-slate-200 object-cover"
                    />
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          {deletable && m.canDelete ? (
            <KeyedForm
              method="post"
              action={href("/bet/:id", { id: String(betId) })}
              className="mt-1 text-right"
            >
              <input type="hidden" name="intent" value="delete-message" />
              <input type="hidden" name="messageId" value={m.id} />
              <button type="submit" className="text-xs text-red-700 underline">
                {t("messages.delete")}
              </button>
            </KeyedForm>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** A read-only conversation as a card: shown above a decision's buttons. */
export function MessagesCard({
  messages,
  betId,
  className = "card space-y-3",
}: {
  messages: MessageItem[] | null;
  betId: number;
  /** Inside another card: no card of its own. */
  className?: string;
}) {
  const t = useT();
  if (messages === null) return null;
  return (
    <section className={className} aria-labelledby="messages-title">
      <h2 id="messages-title" className="font-semibold">
        {t("messages.heading")}
      </h2>
      <MessagesList messages={messages} betId={betId} />
    </section>
  );
}

/** The bet page's conversation: the list and, below it, the form. */
export function BetMessages({
  betId,
  messages,
  failure,
}: {
  betId: number;
  messages: MessageItem[];
  /** A plain form's refusal (the page's actionData), when it was about messages. */
  failure?: Failure | null;
}) {
  const fetcher = useFetcher<Failure>({ key: `bet-message-${betId}` });
  const key = useOwnedFormKey(fetcher);
  const formRef = useRef<HTMLFormElement>(null);
  const sentKey = useRef<string | null>(null);
  const shown =
    fetcher.data && fetcher.data.ok === false ? fetcher.data : failure;
  const sending = fetcher.state !== "idle";
  const t = useT();
  // Photos are never kept on the phone (docs/product-rules.md#messages): a
  // message with photos written offline is refused here, its text kept.
  const [photoCount, setPhotoCount] = useState(0);
  const [heldOffline, setHeldOffline] = useState(false);
  const lostWithPhotos = useUnsent(key) && photoCount > 0;

  // A message answered (not refused, not kept for later) empties the box.
  useEffect(() => {
    if (sending) {
      sentKey.current = key;
      return;
    }
    const sent = sentKey.current;
    if (sent === null) return;
    sentKey.current = null;
    const refused = fetcher.data && fetcher.data.ok === false;
    if (!refused && unansweredState(sent) === undefined) {
      formRef.current?.reset();
      setPhotoCount(0);
    }
  }, [sending, key, fetcher.data]);

  const errors = shown?.fieldErrors?.body;
  const photoErrors = shown?.fieldErrors?.photo;
  return (
    <section
      id="messages"
      className="card space-y-3"
      aria-labelledby="messages-title"
    >
      <h2 id="messages-title" className="font-semibold">
        {t("messages.heading")}
      </h2>
      <p className="text-xs text-slate-600">{t("messages.private")}</p>
      <MessagesList messages={messages} betId={betId} deletable />
      <fetcher.Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        action={href("/bet/:id", { id: String(betId) })}
        className="space-y-2"
        onSubmit={(event) => {
          const offline =
            typeof navigator !== "undefined" && navigator.onLine === false;
          const held = offline && chosenPhotos(event.currentTarget).length > 0;
          setHeldOffline(held);
          if (held) event.preventDefault();
        }}
      >
        <IdempotencyKeyField value={key} />
        <input type="hidden" name="intent" value="message" />
        <label htmlFor="message-body" className="label">
          {t("messages.write")}
        </label>
        <textarea
          id="message-body"
          name="body"
          required
          maxLength={MESSAGE_MAX_CHARS}
          defaultValue={failure?.body ?? ""}
          rows={3}
          className="input"
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? "message-body-error" : undefined}
        />
        <ErrorList id="message-body-error" errors={errors} />
        <MessagePhotosField
          errors={photoErrors}
          onChoose={(count) => {
            setPhotoCount(count);
            setHeldOffline(false);
          }}
        />
        {heldOffline || lostWithPhotos ? (
          <p role="alert" className="field-error" data-photos-not-kept="">
            {t("messages.photosCannotWait")}
          </p>
        ) : null}
        {!errors?.length && !photoErrors?.length ? (
          <FormAlert title={shown?.title} message={shown?.message} />
        ) : null}
        <button type="submit" className="btn-primary w-full" disabled={sending}>
          {sending ? t("messages.sending") : t("messages.send")}
        </button>
        <NotSentNotice formKey={key} />
      </fetcher.Form>
    </section>
  );
}
