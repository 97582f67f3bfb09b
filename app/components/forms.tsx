// Labelled form fields wired to Conform's field metadata: the error text is
// rendered by the server and linked with aria-describedby, so it reads the
// same with and without JavaScript.
import { useId } from "react";

type Errors = string[] | undefined;

export function ErrorList({ id, errors }: { id?: string; errors: Errors }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-error">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/**
 * A password input: required, and for a new password the length the
 * account rules take (6 to 200) and `new-password` autocomplete.
 */
export function PasswordField({
  label,
  name,
  id,
  errors,
  isNew = false,
}: {
  label: React.ReactNode;
  name: string;
  id?: string;
  errors?: Errors;
  isNew?: boolean;
}) {
  return (
    <Field
      label={label}
      errors={errors}
      inputProps={{
        name,
        id,
        type: "password",
        required: true,
        ...(isNew
          ? { minLength: 6, maxLength: 200, autoComplete: "new-password" }
          : { autoComplete: "current-password" }),
      }}
    />
  );
}

export function Field({
  label,
  errors,
  hint,
  inputProps,
  className,
}: {
  label: React.ReactNode;
  errors?: Errors;
  hint?: React.ReactNode;
  inputProps: React.InputHTMLAttributes<HTMLInputElement> & { name: string };
  className?: string;
}) {
  return (
    <LabelledControl
      label={label}
      errors={errors}
      hint={hint}
      controlId={inputProps.id}
      className={className}
    >
      {(wiring) => <input {...inputProps} {...wiring} className="input" />}
    </LabelledControl>
  );
}

export function TextareaField({
  label,
  errors,
  hint,
  textareaProps,
}: {
  label: React.ReactNode;
  errors?: Errors;
  hint?: React.ReactNode;
  textareaProps: React.TextareaHTMLAttributes<HTMLTextAreaElement> & {
    name: string;
  };
}) {
  return (
    <LabelledControl
      label={label}
      errors={errors}
      hint={hint}
      controlId={textareaProps.id}
    >
      {(wiring) => (
        <textarea {...textareaProps} {...wiring} className="input min-h-24" />
      )}
    </LabelledControl>
  );
}

/**
 * The label, hint and errors around one control, wired for screen readers
 * (the control's id, aria-invalid, aria-describedby): what Field and
 * TextareaField share.
 */
function LabelledControl({
  label,
  errors,
  hint,
  controlId,
  className,
  children,
}: {
  label: React.ReactNode;
  errors?: Errors;
  hint?: React.ReactNode;
  controlId?: string;
  className?: string;
  children: (wiring: {
    id: string;
    "aria-invalid": true | undefined;
    "aria-describedby": string | undefined;
  }) => React.ReactNode;
}) {
  const fallbackId = useId();
  const id = controlId ?? fallbackId;
  const errorId = errors?.length ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": errorId ? true : undefined,
        "aria-describedby":
          [hintId, errorId].filter(Boolean).join(" ") || undefined,
      })}
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/**
 * A plain form's alert message for a refused form (`formFailure`): the
 * message, unless fields carry the errors (then they show beside them).
 */
export function formAlert(
  failure?: {
    message?: string;
    fieldErrors?: Record<string, string[] | undefined>;
  } | null,
) {
  if (!failure?.message) return undefined;
  return Object.keys(failure.fieldErrors ?? {}).length
    ? undefined
    : failure.message;
}

/**
 * A refused form's errors by field (formFailure's body): the field errors
 * if any, else the message beside the field at fault, else at
 * form level (the "" key).
 */
export function errorsOf(
  failure?: {
    message: string;
    fieldErrors: Record<string, string[]>;
    field?: string;
  } | null,
): Record<string, string[] | undefined> {
  if (!failure) return {};
  return Object.keys(failure.fieldErrors).length
    ? failure.fieldErrors
    : { [failure.field ?? ""]: [failure.message] };
}

/** A form-level message (a refused login, a conflict) in an alert region. */
export function FormAlert({
  title,
  message,
}: {
  title?: string;
  message?: string | null;
}) {
  if (!message) return null;
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      <p>{message}</p>
    </div>
  );
}
