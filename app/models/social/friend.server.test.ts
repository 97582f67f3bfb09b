import { describe, expect, it } from "vitest";
import {
  acceptFriendRequest,
  declineFriendRequest,
  sendFriendRequest,
} from "./friend.server";
import {
  countIncomingRequests,
  headToHead,
  listFriends,
  listIncomingRequests,
  searchUsers,
} from "./friend-lists.server";
import { FRIEND_MESSAGES, parseFriendId } from "./friend-input.server";
import { countUnreadActivity, listActivity } from "./activity.server";
import { expectRejection } from "../../../tests/support/expect-error";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

let n = 0;
async function makeUser(name?: string) {
  n += 1;
  const username = name ?? `friend${n}`;
  const row = (await sqlite
    .prepare(
      "INSERT INTO users (username, email, password_hash) VALUES (?, ?, 'x') RETURNING id",
    )
    .get(username, `${username}@example.com`)) as { id: number };
  return row.id;
}

describe("friend requests", () => {
  it("send → accept makes a symmetric friendship and tells both people", async () => {
    const a = await makeUser();
    const b = await makeUser();
    await sendFriendRequest({ userId: a, friendId: b });
    expect((await listIncomingRequests(b)).map((r) => r.friend.id)).toEqual([
      a,
    ]);
    expect(await countIncomingRequests(b)).toBe(1);
    expect(await listIncomingRequests(a)).toEqual([]);
    expect((await listActivity(b))[0]).toMatchObject({
      type: "friend_request_received",
      actorId: a,
    });
    await acceptFriendRequest({ userId: b, requesterId: a });
    expect((await listFriends(a)).map((f) => f.friend.id)).toEqual([b]);
    expect((await listFriends(b)).map((f) => f.friend.id)).toEqual([a]);
    expect(await countIncomingRequests(b)).toBe(0);
    expect((await listActivity(a))[0]).toMatchObject({
      type: "friend_request_accepted",
      actorId: b,
    });
    expect(await countUnreadActivity(a)).toBe(1);
  });

  it("refuses a request to yourself (400)", async () => {
    const a = await makeUser();
    await expectRejection(
      async () => sendFriendRequest({ userId: a, friendId: a }),
      400,
      FRIEND_MESSAGES.self,
    );
  });

  it("refuses an unknown user (404)", async () => {
    const a = await makeUser();
    await expectRejection(
      async () => sendFriendRequest({ userId: a, friendId: 999_999 }),
      404,
      FRIEND_MESSAGES.userNotFound,
    );
  });

  it("refuses a duplicate, a reverse request and an existing friend (409)", async () => {
    const a = await makeUser();
    const b = await makeUser();
    await sendFriendRequest({ userId: a, friendId: b });
    await expectRejection(
      async () => sendFriendRequest({ userId: a, friendId: b }),
      409,
      FRIEND_MESSAGES.alreadyRequested,
    );
    await expectRejection(
      async () => sendFriendRequest({ userId: b, friendId: a }),
      409,
      FRIEND_MESSAGES.theyAsked,
    );
    await acceptFriendRequest({ userId: b, requesterId: a });
    await expectRejection(
      async () => sendFriendRequest({ userId: a, friendId: b }),
      409,
      FRIEND_MESSAGES.alreadyFriends,
    );
    await expectRejection(
      async () => sendFriendRequest({ userId: b, friendId: a }),
      409,
      FRIEND_MESSAGES.alreadyFriends,
    );
    const rows = (await sqlite
      .prepare(
        "SELECT count(*) AS n FROM friendships WHERE requester_id IN (?, ?) AND addressee_id IN (?, ?)",
      )
      .get(a, b, a, b)) as { n: number };
    expect(rows.n).toBe(1);
  });

  it("refuses accepting a request you did not receive (404)", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const c = await makeUser();
    await sendFriendRequest({ userId: a, friendId: b });
    // the sender cannot accept their own request
    await expectRejection(
      async () => acceptFriendRequest({ userId: a, requesterId: b }),
      404,
      FRIEND_MESSAGES.requestNotFound,
    );
    // a third person cannot accept it
    await expectRejection(
      async () => acceptFriendRequest({ userId: c, requesterId: a }),
      404,
    );
    expect(await listFriends(a)).toEqual([]);
  });

  it("declines once; declining twice is a 404; a new request may follow", async () => {
    const a = await makeUser();
    const b = await makeUser();
    await sendFriendRequest({ userId: a, friendId: b });
    await declineFriendRequest({ userId: b, requesterId: a });
    expect(await listIncomingRequests(b)).toEqual([]);
    await expectRejection(
      async () => declineFriendRequest({ userId: b, requesterId: a }),
      404,
      FRIEND_MESSAGES.requestNotFound,
    );
    expect(await listFriends(b)).toEqual([]);
    await sendFriendRequest({ userId: a, friendId: b });
    expect(await listIncomingRequests(b)).toHaveLength(1);
  });

  it("cannot decline an accepted friendship", async () => {
    const a = await makeUser();
    const b = await makeUser();
    await sendFriendRequest({ userId: a, friendId: b });
    await acceptFriendRequest({ userId: b, requesterId: a });
    await expectRejection(
      async () => declineFriendRequest({ userId: b, requesterId: a }),
      404,
    );
    expect(await listFriends(a)).toHaveLength(1);
  });

  it("parses friendId strictly (400)", async () => {
    expect(parseFriendId({ friendId: 7 })).toBe(7);
    expect(parseFriendId({ friendId: "7" })).toBe(7);
    for (const bad of [undefined, null, "", "x", -1, 0, 1.5, true, "1e3"])
      await expectRejection(() => parseFriendId({ friendId: bad }), 400);
    await expectRejection(() => parseFriendId(null), 400);
  });
});

describe("searchUsers", () => {
  it("finds by substring, prefix first, never yourself, no emails", async () => {
    const me = await makeUser("searcher_zed");
    const p = await makeUser("zedkin");
    const s = await makeUser("mazed");
    await makeUser("nomatch");
    const results = await searchUsers({ userId: me, query: "ZED" });
    expect(results.map((r) => r.id)).toEqual([p, s]);
    expect(JSON.stringify(results)).not.toMatch(/@|email/);
  });

  it("treats % and _ literally", async () => {
    const me = await makeUser("pct_me");
    await makeUser("plainname");
    expect(await searchUsers({ userId: me, query: "%%" })).toEqual([]);
    expect(
      (await searchUsers({ userId: me, query: "t_m" })).map((r) => r.username),
    ).toEqual([]);
  });

  it("refuses fewer than 2 characters", async () => {
    const me = await makeUser();
    for (const q of ["", "a", " b "])
      await expectRejection(
        async () => searchUsers({ userId: me, query: q }),
        400,
        FRIEND_MESSAGES.queryTooShort,
      );
  });

  it("marks the relation to each result", async () => {
    const me = await makeUser("rel_me");
    const f = await makeUser("rel_friend");
    const s = await makeUser("rel_sent");
    const r = await makeUser("rel_recv");
    await sendFriendRequest({ userId: me, friendId: f });
    await acceptFriendRequest({ userId: f, requesterId: me });
    await sendFriendRequest({ userId: me, friendId: s });
    await sendFriendRequest({ userId: r, friendId: me });
    const rel = Object.fromEntries(
      (await searchUsers({ userId: me, query: "rel_" })).map((x) => [
        x.username,
        x.relation,
      ]),
    );
    expect(rel).toEqual({
      rel_friend: "friend",
      rel_sent: "sent",
      rel_recv: "received",
    });
  });
});

describe("headToHead", () => {
  it("counts settled bets between two people from each side", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const c = await makeUser();
    const bet = async (winner: number, status = "settled", other = b) => {
      const row = (await sqlite
        .prepare(
          `INSERT INTO bets (code, title, description, amount_cents, visibility, deadline, status, creator_id, winner_id, updated_at)
           VALUES (?, 't', 'd', 100, 'public', 0, ?, ?, ?, 0) RETURNING id`,
        )
        .get(
          `H${Math.random().toString(36).slice(2, 9)}`,
          status,
          a,
          status === "settled" ? winner : null,
        )) as { id: number };
      await sqlite
        .prepare(
          "INSERT INTO bet_participants (bet_id, user_id, seat) VALUES (?, ?, 1), (?, ?, 2)",
        )
        .run(row.id, a, row.id, other);
    };
    await bet(a);
    await bet(a);
    await bet(b);
    await bet(a, "active");
    await bet(c, "settled", c);
    expect((await headToHead(a)).get(b)).toEqual({ wins: 2, losses: 1 });
    expect((await headToHead(b)).get(a)).toEqual({ wins: 1, losses: 2 });
    expect((await headToHead(a)).get(c)).toEqual({ wins: 0, losses: 1 });
    await sendFriendRequest({ userId: a, friendId: b });
    await acceptFriendRequest({ userId: b, requesterId: a });
    expect((await listFriends(b))[0]!.headToHead).toEqual({
      wins: 1,
      losses: 2,
    });
  });
});
