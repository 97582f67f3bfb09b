// The HTML door's counterpart of api(): a refused form answers with the
// refusal's status and the page showing the message (DESIGN §3a), never a
// redirect that would lose what the person typed.
import { data } from "react-router";
import { isDomainError, type FieldErrors } from "./errors";

export type FormFailure = {
  ok: false;
  status: number;
  /** A toast-style title when SPEC gives one ('Cannot edit', 'Failed to join bet'). */
  title: string;
  message: string;
  fieldErrors: FieldErrors;
};

/** Maps a DomainError to `data(FormFailure, { status })`; rethrows anything else. */
export function formFailure(error: unknown, defaultTitle: string) {
  if (!isDomainError(error)) throw error;
  const failure: FormFailure = {
    ok: false,
    status: error.status,
    title: error.title ?? defaultTitle,
    message: error.message,
    fieldErrors: error.fieldErrors ?? {},
  };
  return data(failure, { status: error.status });
}
