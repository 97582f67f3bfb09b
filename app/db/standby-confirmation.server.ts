// What a request's changes of money or membership learned from the
// synchronous standby (docs/decisions/1065-acknowledged-means-kept.md): the
// database layer notes here that such a change committed, and whether the
// standby confirmed it in time; the idempotency guard reads it to keep the
// answer as firmly as the change, and answers 503 for a change the standby
// did not confirm. Its own module, free of connections, like the change
// witness beside it.
import { AsyncLocalStorage } from "node:async_hooks";

export type StandbyConfirmation = {
  /** When this request's waits for the standby end (its first wait sets it). */
  deadline?: number;
  /** A change of money or membership committed in this request. */
  moneyOrMembership: boolean;
  /** One of them committed on the primary but was not confirmed in time. */
  unconfirmed: boolean;
};

const scope = new AsyncLocalStorage<StandbyConfirmation>();

/** Runs `fn` with a confirmation record of its own, which it is handed. */
export function withStandbyConfirmation<T>(
  fn: (confirmation: StandbyConfirmation) => T,
): T {
  const confirmation: StandbyConfirmation = {
    moneyOrMembership: false,
    unconfirmed: false,
  };
  return scope.run(confirmation, () => fn(confirmation));
}

/** The current request's record, when one is kept. */
export function currentStandbyConfirmation(): StandbyConfirmation | undefined {
  return scope.getStore();
}
