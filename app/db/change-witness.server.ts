// Lets a request's guard learn, inside the very transaction that makes a
// change, that the change is being made: `immediate()` calls the witness of
// the request it runs for (an AsyncLocalStorage scope) just before it
// commits, so what the witness writes commits with the change or not at
// all. Used by the idempotency guard (app/models/requests/).
import { AsyncLocalStorage } from "node:async_hooks";

export type ChangeWitness<Tx> = (tx: Tx) => Promise<void> | void;

const scope = new AsyncLocalStorage<ChangeWitness<never>>();

/** Runs `fn` with `witness` called by every transaction made within it. */
export function withChangeWitness<Tx, T>(
  witness: ChangeWitness<Tx>,
  fn: () => T,
): T {
  return scope.run(witness as ChangeWitness<never>, fn);
}

/** The witness of the current request, when one is set. */
export function currentChangeWitness<Tx>(): ChangeWitness<Tx> | undefined {
  return scope.getStore() as ChangeWitness<Tx> | undefined;
}
