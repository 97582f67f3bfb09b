// The message form's photos (docs/product-rules.md#messages): up to 4 JPEG,
// PNG or WebP images of 10 MB each. Without JavaScript it is a plain file
// input and the server says what it refuses; with JavaScript the choice is
// checked at once (the server checks again, by the bytes), so a photo too
// large is not uploaded for nothing.
import { useState } from "react";
import { useT, type MessageKey } from "~/components/i18n";
import { PHOTO_MAX_BYTES, PHOTOS_PER_MESSAGE } from "~/domain/messages";

export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"];

/** What is wrong with the chosen files (its message), or null when they may be sent. */
export function photoChoiceProblem(files: readonly File[]): MessageKey | null {
  if (files.length > PHOTOS_PER_MESSAGE) return "messages.photoTooMany";
  for (const file of files) {
    if (file.size > PHOTO_MAX_BYTES) return "messages.photoTooLarge";
    // The browser's type comes from the name; the server sniffs the bytes.
    if (file.type && !PHOTO_TYPES.includes(file.type))
      return "messages.photoNotImage";
  }
  return null;
}

/** The chosen, non-empty files of a form's photo input. */
export function chosenPhotos(form: HTMLFormElement | null): File[] {
  const input = form?.elements.namedItem("photo");
  if (!(input instanceof HTMLInputElement) || !input.files) return [];
  return Array.from(input.files).filter((f) => f.size > 0 || f.name !== "");
}

export function MessagePhotosField({
  errors,
  onChoose,
}: {
  /** The server's refusal of the photos, if any. */
  errors?: string[];
  /** How many photos are chosen now (the form's offline rule needs it). */
  onChoose?: (count: number) => void;
}) {
  const t = useT();
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ? [problem] : (errors ?? []);
  return (
    <div>
      <label htmlFor="message-photos" className="label">
        {t("messages.addPhotos")}
      </label>
      <input
        id="message-photos"
        name="photo"
        type="file"
        multiple
        accept={PHOTO_TYPES.join(",")}
        className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-slate-200 file:px-4 file:font-semibold"
        aria-invalid={shown.length ? true : undefined}
        aria-describedby={`message-photos-hint${shown.length ? " message-photos-error" : ""}`}
        onChange={(event) => {
          const input = event.currentTarget;
          const files = Array.from(input.files ?? []);
          const problemKey = photoChoiceProblem(files);
          const wrong = problemKey && t(problemKey);
          input.setCustomValidity(wrong ?? "");
          setProblem(wrong);
          onChoose?.(files.length);
        }}
      />
      <p id="message-photos-hint" className="hint">
        {t("messages.photosHint")}
      </p>
      {shown.length ? (
        <ul
          id="message-photos-error"
          className="field-error"
          role="alert"
          data-testid="photo-error"
        >
          {shown.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
