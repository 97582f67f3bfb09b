// An activity's words as a catalog key and its values
// (docs/product-rules.md#languages): saved with the event, so an email or
// a push is written in the recipient's language when it goes out, and the
// same words can be shown on a page in the reader's language. Amounts and
// instants are kept as numbers and formatted for the language they are
// written in; a value may itself be a message (a fragment, "the referee
// ruled").
import type { Currency } from "./currency";

export type TextValue =
  | string
  | number
  /** An amount in the currency's minor unit. */
  | { money: number; currency: Currency }
  /** An instant (epoch milliseconds), written as a date and time in UTC. */
  | { at: number }
  /** A message of its own, written in the same language. */
  | ActivityText;

/** `Key` is the catalogs' key type (app/locales/keys.ts), which the domain does not import. */
export type ActivityText<Key extends string = string> = {
  key: Key;
  values?: Record<string, TextValue>;
};
