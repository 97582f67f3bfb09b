import { describe, expect, it } from "vitest";
import { isDomainError } from "~/utils/errors";
import { closeAccount, openBetsOf } from "./account.server";
import { exportAccountData } from "../cross-domain/account-export.server";
import { displayName } from "./display-name.server";
import { createBet, joinBet } from "../bets/bet.server";
import { sendFriendRequest } from "../social/friend.server";
import { getPublicUser, hashPassword } from "./user.server";
import { updateProfile } from "./profile.server";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

let n = 0;
async function makeUser(name?: string, passwordHash = "x") {
  n += 1;
  const username = name ?? `acct${n}`;
  return (
    (await sqlite
      .prepare(
        "INSERT INTO users (username, email, password_hash) VALUES (?, ?, ?) RETURNING id",
      )
      .get(username, `${username}@example.com`, passwordHash)) as { id: number }
  ).id;
}

const NOW = Date.UTC(2026, 10, 23, 12);
const HOUR = 3_600_000;

async function makeBet(opts: {
  creator: number;
  joiner?: number;
  status: "pending" | "active" | "settled" | "cancelled";
  deadline?: number;
  refereeId?: number;
}) {
  n += 1;
  const id = (
    (await sqlite
      .prepare(
        `INSERT INTO bets (code, title, description, amount_cents, visibility, deadline, status, creator_id, referee_id, updated_at)
         VALUES (?, 'Bet', 'A bet between two people', 500, 'public', ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        `C${n}`.padEnd(6, "X"),
        opts.deadline ?? NOW + 24 * HOUR,
        opts.status,
        opts.creator,
        opts.refereeId ?? null,
        NOW,
      )) as { id: number }
  ).id;
  await sqlite
    .prepare(
      "INSERT INTO bet_participants (bet_id, user_id, seat) VALUES (?, ?, 1)",
    )
    .run(id, opts.creator);
  if (opts.joiner)
    await sqlite
      .prepare(
        "INSERT INTO bet_participants (bet_id, user_id, seat) VALUES (?, ?, 2)",
      )
      .run(id, opts.joiner);
  return id;
}

async function settle(
  betId: number,
  winner: number | null,
  loser: number | null,
  paymentStatus: "pending" | "completed",
) {
  await sqlite
    .prepare(
      `INSERT INTO settlements (bet_id, winner_id, loser_id, proposed_by, outcome, settled_at, payment_status)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      betId,
      winner,
      loser,
      winner ?? loser ?? 1,
      winner ? "winner" : "void",
      NOW,
      paymentStatus,
    );
}

describe("openBetsOf: what keeps an account open", () => {
  it("a pending bet until its deadline, an active one, refereeing either", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const ref = await makeUser();
    expect(await openBetsOf(a, NOW)).toEqual([]);
    const pending = await makeBet({
      creator: a,
      status: "pending",
      deadline: NOW + HOUR,
    });
    expect(await openBetsOf(a, NOW)).toEqual([pending]);
    // past its deadline a pending bet reads as cancelled: it no longer holds anyone
    expect(await openBetsOf(a, NOW + HOUR)).toEqual([]);
    const active = await makeBet({
      creator: b,
      joiner: a,
      status: "active",
      refereeId: ref,
    });
    expect(await openBetsOf(a, NOW + HOUR)).toEqual([active]);
    expect(await openBetsOf(b, NOW + HOUR)).toEqual([active]);
    expect(await openBetsOf(ref, NOW + HOUR)).toEqual([active]);
  });

  it("a settled bet with a winner until it is paid, for both sides; never a void or cancelled one", async () => {
    const winner = await makeUser();
    const loser = await makeUser();
    const owed = await makeBet({
      creator: loser,
      joiner: winner,
      status: "settled",
    });
    await settle(owed, winner, loser, "pending");
    expect(await openBetsOf(loser, NOW)).toEqual([owed]);
    expect(await openBetsOf(winner, NOW)).toEqual([owed]);
    await sqlite
      .prepare(
        "UPDATE settlements SET payment_status = 'completed' WHERE bet_id = ?",
      )
      .run(owed);
    expect(await openBetsOf(loser, NOW)).toEqual([]);
    expect(await openBetsOf(winner, NOW)).toEqual([]);
    const voided = await makeBet({
      creator: loser,
      joiner: winner,
      status: "cancelled",
    });
    await settle(voided, null, null, "pending");
    expect(await openBetsOf(loser, NOW)).toEqual([]);
  });
});

describe("closeAccount", () => {
  it("anonymises, and rewrites the other side's activity without mangling words", async () => {
    // 'pay' is a word in the other side's messages as well as this name
    const hash = await hashPassword("secret123");
    const leaver = await makeUser("pay", hash);
    const other = await makeUser();
    const bet = await makeBet({
      creator: leaver,
      joiner: other,
      status: "settled",
    });
    await settle(bet, other, leaver, "completed");
    await sqlite
      .prepare(
        "INSERT INTO activity_events (user_id, actor_id, type, message, bet_id) VALUES (?, ?, 'payment_received', ?, ?)",
      )
      .run(
        other,
        leaver,
        'pay paid $5.00 for "Bet to pay rent": please pay.',
        bet,
      );
    await sqlite
      .prepare(
        "INSERT INTO activity_events (user_id, actor_id, type, message, bet_id) VALUES (?, NULL, 'payment_due', ?, ?)",
      )
      .run(leaver, "Reminder: you owe", bet);

    await expect(
      closeAccount({ userId: leaver, input: { password: "wrong" }, now: NOW }),
    ).rejects.toMatchObject({ status: 400 });
    await closeAccount({
      userId: leaver,
      input: { password: "secret123" },
      now: NOW,
    });

    const messages = (await sqlite
      .prepare(
        'SELECT user_id AS "userId", message FROM activity_events WHERE bet_id = ?',
      )
      .all(bet)) as { userId: number; message: string }[];
    expect(messages).toEqual([
      {
        userId: other,
        message: 'Deleted user paid $5.00 for "Bet to pay rent": please pay.',
      },
    ]);
    expect((await getPublicUser(leaver))?.username).toBe("Deleted user");
    expect(
      displayName({ username: `deleted-${leaver}`, deletedAt: new Date(NOW) }),
    ).toBe("Deleted user");
    // closed twice: the second finds no account
    const again = await closeAccount({
      userId: leaver,
      input: { password: "secret123" },
      now: NOW,
    }).catch((e: unknown) => e);
    expect(isDomainError(again) && again.status).toBe(401);
    await expect(exportAccountData(leaver)).rejects.toThrow();
  });

  it("409 inside the transaction when a bet is open", async () => {
    const hash = await hashPassword("secret123");
    const me = await makeUser(undefined, hash);
    const them = await makeUser();
    await makeBet({ creator: them, joiner: me, status: "active" });
    await expect(
      closeAccount({ userId: me, input: { password: "secret123" }, now: NOW }),
    ).rejects.toMatchObject({
      status: 409,
      message: "Finish, cancel or pay your open bets first.",
    });
    const row = (await sqlite
      .prepare("SELECT deleted_at FROM users WHERE id = ?")
      .get(me)) as { deleted_at: number | null };
    expect(row.deleted_at).toBeNull();
  });
});

describe("a request whose session was read before the account closed", () => {
  it("cannot create or join a bet, ask a friend or rename the account (401)", async () => {
    const hash = await hashPassword("secret123");
    const leaver = await makeUser(undefined, hash);
    const other = await makeUser();
    const open = await makeBet({
      creator: other,
      status: "pending",
      deadline: Date.now() + 24 * HOUR,
    });
    await closeAccount({ userId: leaver, input: { password: "secret123" } });
    const attempts: [string, () => unknown][] = [
      ["join", async () => joinBet({ betId: open, userId: leaver })],
      [
        "create",
        async () =>
          createBet({
            creatorId: leaver,
            input: {
              title: "Late bet",
              description: "Made after closing",
              amountCents: 500,
              deadline: Date.now() + 24 * HOUR,
              visibility: "public",
            },
          }),
      ],
      [
        "befriend",
        async () => sendFriendRequest({ userId: leaver, friendId: other }),
      ],
      [
        "rename",
        () =>
          updateProfile({ userId: leaver, input: { username: "backagain" } }),
      ],
    ];
    for (const [name, attempt] of attempts) {
      let status: unknown = "no error";
      try {
        await attempt();
      } catch (error) {
        status = isDomainError(error) ? error.status : error;
      }
      expect(status, name).toBe(401);
    }
    expect(await openBetsOf(leaver)).toEqual([]);
  });
});
