import { useEffect, useId, useState } from "react";
import { useT } from "~/components/i18n";

const MB = 1024 * 1024;
/** docs/product-rules.md#amounts-and-limits: the generic file picker's default limit. */
export const FILE_PICKER_DEFAULT_MAX = 5 * MB;

const megabytes = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/**
 * A file input with a size check and an image preview when JavaScript runs
 * (the server checks again: this only saves a pointless upload). Without
 * JavaScript it is a plain file input.
 */
export function FilePicker({
  name,
  label,
  accept = "image/*",
  maxSize = FILE_PICKER_DEFAULT_MAX,
  hint,
  errors,
}: {
  name: string;
  label: string;
  accept?: string;
  maxSize?: number;
  hint?: string;
  errors?: string[];
}) {
  const id = useId();
  const t = useT();
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  const shown = error ? [error] : (errors ?? []);
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        required
        className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-slate-200 file:px-4 file:font-semibold"
        aria-invalid={shown.length ? true : undefined}
        aria-describedby={`${id}-hint${shown.length ? ` ${id}-error` : ""}`}
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          setPreview(null);
          if (!file) {
            input.setCustomValidity("");
            setError(null);
            return;
          }
          if (file.size > maxSize) {
            const message = t("upload.tooLarge", { mb: megabytes(maxSize) });
            input.setCustomValidity(message);
            setError(message);
            return;
          }
          input.setCustomValidity("");
          setError(null);
          if (file.type.startsWith("image/"))
            setPreview(URL.createObjectURL(file));
        }}
      />
      <p id={`${id}-hint`} className="hint">
        {hint ?? t("upload.upTo", { mb: megabytes(maxSize) })}
      </p>
      {shown.length ? (
        <ul id={`${id}-error`} className="field-error" role="alert">
          {shown.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      {preview ? (
        <img
          src={preview}
          alt={t("upload.preview")}
          className="mt-2 size-24 rounded-full object-cover"
        />
      ) : null}
    </div>
  );
}
