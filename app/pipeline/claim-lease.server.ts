// A claimed idempotency key belongs to its request for IDEMPOTENCY_LEASE_MS
// without news from it (app/models/requests/idempotency-keys.server.ts).
// While the request runs, its lease is renewed three times as often. A
// renewal is bookkeeping: when the database is slow or out of reach it fails
// quietly and the next one tries again; it never ends the process, and two
// never run at once (a slow one would otherwise pile up behind the next).
// A lease that lapses anyway is safe: another copy of the request may take
// the key over, and the stamp of this one's change then refuses to commit
// (`stampIdempotencyEffect`), so the change is made once.
import {
  claimRenewMs,
  renewIdempotencyClaim,
} from "~/models/requests/idempotency-keys.server";

export type ClaimLease = { stop: () => void };

/** Renews claim `claimId` until `stop()`. */
export function keepClaimAlive(claimId: number): ClaimLease {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const renewLater = () => {
    if (stopped) return;
    timer = setTimeout(renew, claimRenewMs());
    timer.unref();
  };
  const renew = () => {
    renewIdempotencyClaim(claimId).then(renewLater, (error: unknown) => {
      console.warn(
        `idempotency: lease of claim ${claimId} not renewed (${(error as Error).message})`,
      );
      renewLater();
    });
  };
  renewLater();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
