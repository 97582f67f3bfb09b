// Work that must reach the primary database from any region: the start-up's
// run-once work (under the migration lock) and the health check's look at
// the primary. Its own module, free of connections, so the migrations can
// use it without opening any (docs/decisions/1050-regions-read-nearby-write-in-one.md).
import { AsyncLocalStorage } from "node:async_hooks";
import { outsidePrimaryRegion } from "~/utils/env.server";

const onPrimary = new AsyncLocalStorage<true>();

/** Runs `fn` with `db` and `immediate` on the primary, in any region. */
export function usingPrimary<T>(fn: () => T): T {
  return onPrimary.run(true, fn);
}

/** True inside `usingPrimary`. */
export const primaryAskedFor = () => onPrimary.getStore() === true;

/**
 * Whether a change may be made from here: in the primary region (or with
 * no regions), or inside `usingPrimary`. A session's "last seen" is not
 * touched where this is false.
 */
export function writesHere(): boolean {
  return !outsidePrimaryRegion() || primaryAskedFor();
}
