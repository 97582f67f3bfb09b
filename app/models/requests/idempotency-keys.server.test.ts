// A lapsed claim cannot commit (docs/decisions/1039-a-lapsed-claim-cannot-commit.md):
// a request whose lease ran out while its work waited is overtaken by a
// repeat, which claims the key under a new id; the first request's change
// then rolls back, and the work is done once, by the repeat.
import { describe, expect, it } from "vitest";
import { immediate } from "~/db/transactions.server";
import { idempotencyLeaseMs } from "~/utils/env-settings.server";
import { UnavailableError } from "~/utils/errors";
import { person } from "../../../tests/support/factories";
import {
  claimIdempotencyKey,
  idempotencyEffectMade,
  stampIdempotencyEffect,
} from "./idempotency-keys.server";

describe("a claim's lease", () => {
  it("a repeat takes a lapsed claim under a new id, and the first one's stamp rolls its change back", async () => {
    const { id: userId } = await person("lease");
    const claim = { userId, key: "lapsed-key-1", fingerprint: "f" };
    const now = Date.now();
    const first = await claimIdempotencyKey(claim, now);
    expect(first.outcome).toBe("run");
    // Still within the lease: a repeat is told to wait.
    expect((await claimIdempotencyKey(claim, now + 1)).outcome).toBe("busy");

    const later = now + idempotencyLeaseMs() + 1;
    const second = await claimIdempotencyKey(claim, later);
    expect(second.outcome).toBe("run");
    if (first.outcome !== "run" || second.outcome !== "run") return;
    expect(second.id).not.toBe(first.id);

    // The first request's change commits only with its stamp: it cannot.
    await expect(
      immediate((tx) => stampIdempotencyEffect(tx, first.id)),
    ).rejects.toBeInstanceOf(UnavailableError);
    expect(await idempotencyEffectMade(second.id)).toBe(false);
    // The repeat's change commits with its own.
    await immediate((tx) => stampIdempotencyEffect(tx, second.id));
    expect(await idempotencyEffectMade(second.id)).toBe(true);
    // From now on a third copy is told the answer was lost, never run.
    expect((await claimIdempotencyKey(claim, later * 2)).outcome).toBe(
      "answer-lost",
    );
  });
});
