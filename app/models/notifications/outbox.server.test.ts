// The outbox on the claims' lease (docs/product-rules.md#notifications,
// docs/decisions/1032-one-claim-one-backoff.md): a refused mail is retried
// after the backoff, a row is claimed by one pass only, and a row cut off
// mid-send is given up, never sent again. Over HTTP with a real mail server:
// tests/api/notifications.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { joinBet } from "../bets/bet.server";
import { backoffMs } from "../jobs/claims.server";
import { outboxRetryBaseMs } from "~/utils/env-settings.server";
import { makeBet, person } from "../../../tests/support/factories";
import { rawDb as sql } from "../../../tests/support/raw-sql";
import { deliverDueNotifications, outboxDepth } from "./outbox.server";

// Nothing listens there: every mail is refused at once.
process.env.SMTP_URL = "smtp://127.0.0.1:1";

beforeEach(() => void vi.spyOn(console, "error").mockImplementation(() => {}));
afterEach(() => vi.restoreAllMocks());

/** A verified creator whose bet was just joined: one email row, one push row. */
async function joinedBet() {
  const creator = await person("oc");
  await sql
    .prepare("UPDATE users SET email_verified = TRUE WHERE id = ?")
    .run(creator.id);
  const bet = await makeBet(creator.id);
  await joinBet({ betId: bet.id, userId: (await person("oj")).id });
  return creator.id;
}

async function deliveryOf(userId: number, channel: "email" | "push") {
  const row = await sql
    .prepare(
      `SELECT d.id, d.status, d.attempts, d.next_attempt_at, d.claimed_until, d.last_error
         FROM notification_deliveries d
         JOIN activity_events e ON e.id = d.event_id
        WHERE e.user_id = ? AND d.channel = ?`,
    )
    .get(userId, channel);
  return {
    ...row,
    attempts: Number(row!.attempts),
    next_attempt_at: Number(row!.next_attempt_at),
  } as {
    id: number;
    status: string;
    attempts: number;
    next_attempt_at: number;
    last_error: string | null;
  };
}

describe("the outbox on the lease", () => {
  it("a refused mail waits the backoff, and is not tried before", async () => {
    const userId = await joinedBet();
    const start = Date.now() + 1_000;
    await deliverDueNotifications(() => start);
    expect(await deliveryOf(userId, "push")).toMatchObject({
      status: "skipped",
    });
    let email = await deliveryOf(userId, "email");
    expect(email).toMatchObject({ status: "pending", attempts: 1 });
    expect(email.next_attempt_at - start).toBe(
      backoffMs(1, outboxRetryBaseMs()),
    );
    expect(await outboxDepth()).toBeGreaterThanOrEqual(1);

    await deliverDueNotifications(() => email.next_attempt_at - 1);
    expect(await deliveryOf(userId, "email")).toMatchObject({ attempts: 1 });

    const second = email.next_attempt_at;
    await deliverDueNotifications(() => second);
    email = await deliveryOf(userId, "email");
    expect(email).toMatchObject({ status: "pending", attempts: 2 });
    expect(email.next_attempt_at - second).toBe(
      backoffMs(2, outboxRetryBaseMs()),
    );
  });

  it("two passes at once: each row is claimed by one of them", async () => {
    const userId = await joinedBet();
    const at = Date.now() + 1_000;
    await Promise.all([
      deliverDueNotifications(() => at),
      deliverDueNotifications(() => at),
    ]);
    expect(await deliveryOf(userId, "email")).toMatchObject({
      status: "pending",
      attempts: 1,
    });
  });

  it("a row cut off mid-send is given up, not sent again (at most once)", async () => {
    const userId = await joinedBet();
    const { id } = await deliveryOf(userId, "email");
    const at = Date.now() + 1_000;
    // As a process that died talking to the mail server leaves it.
    await sql
      .prepare(
        "UPDATE notification_deliveries SET status = 'sending', attempts = 1, claimed_until = ? WHERE id = ?",
      )
      .run(at + 60_000, id);
    // Still within its claim: nobody else takes it.
    await deliverDueNotifications(() => at);
    expect(await deliveryOf(userId, "email")).toMatchObject({
      status: "sending",
      attempts: 1,
    });
    // Its claim lapsed: given up.
    await deliverDueNotifications(() => at + 60_000);
    const email = await deliveryOf(userId, "email");
    expect(email).toMatchObject({ status: "failed", attempts: 1 });
    expect(email.last_error).toMatch(/not sent again/);
  });
});
