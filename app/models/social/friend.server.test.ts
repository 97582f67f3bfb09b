import { describe, expect, it } from "vitest";
import { sqlite } from "~/db/client.server";
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
import { expectError } from "../../../tests/support/expect-error";

let n = 0;
function makeUser(name?: string) {
  n += 1;
  const username = name ?? `friend${n}`;
  const row = sqlite
    .prepare(
      "INSERT INTO users (username, email, password_hash) VALUES (?, ?, 'x') RETURNING id",
    )
    .get(username, `${username}@example.com`) as { id: number };
  return row.id;
}

describe("friend requests", () => {
  it("send → accept makes a symmetric friendship and tells both people", () => {
    const a = makeUser();
    const b = makeUser();
    sendFriendRequest({ userId: a, friendId: b });
    expect(listIncomingRequests(b).map((r) => r.friend.id)).toEqual([a]);
    expect(countIncomingRequests(b)).toBe(1);
    expect(listIncomingRequests(a)).toEqual([]);
    expect(listActivity(b)[0]).toMatchObject({
      type: "friend_request_received",
      actorId: a,
    });
    acceptFriendRequest({ userId: b, requesterId: a });
    expect(listFriends(a).map((f) => f.friend.id)).toEqual([b]);
    expect(listFriends(b).map((f) => f.friend.id)).toEqual([a]);
    expect(countIncomingRequests(b)).toBe(0);
    expect(listActivity(a)[0]).toMatchObject({
      type: "friend_request_accepted",
      actorId: b,
    });
    expect(countUnreadActivity(a)).toBe(1);
  });

  it("refuses a request to yourself (400)", () => {
    const a = makeUser();
    expectError(
      () => sendFriendRequest({ userId: a, friendId: a }),
      400,
      FRIEND_MESSAGES.self,
    );
  });

  it("refuses an unknown user (404)", () => {
    const a = makeUser();
    expectError(
      () => sendFriendRequest({ userId: a, friendId: 999_999 }),
      404,
      FRIEND_MESSAGES.userNotFound,
    );
  });

  it("refuses a duplicate, a reverse request and an existing friend (409)", () => {
    const a = makeUser();
    const b = makeUser();
    sendFriendRequest({ userId: a, friendId: b });
    expectError(
      () => sendFriendRequest({ userId: a, friendId: b }),
      409,
      FRIEND_MESSAGES.alreadyRequested,
    );
    expectError(
      () => sendFriendRequest({ userId: b, friendId: a }),
      409,
      FRIEND_MESSAGES.theyAsked,
    );
    acceptFriendRequest({ userId: b, requesterId: a });
    expectError(
      () => sendFriendRequest({ userId: a, friendId: b }),
      409,
      FRIEND_MESSAGES.alreadyFriends,
    );
    expectError(
      () => sendFriendRequest({ userId: b, friendId: a }),
      409,
      FRIEND_MESSAGES.alreadyFriends,
    );
    const rows = sqlite
      .prepare(
        "SELECT count(*) AS n FROM friendships WHERE requester_id IN (?, ?) AND addressee_id IN (?, ?)",
      )
      .get(a, b, a, b) as { n: number };
    expect(rows.n).toBe(1);
  });

  it("refuses accepting a request you did not receive (404)", () => {
    const a = makeUser();
    const b = makeUser();
    const c = makeUser();
    sendFriendRequest({ userId: a, friendId: b });
    // the sender cannot accept their own request
    expectError(
      () => acceptFriendRequest({ userId: a, requesterId: b }),
      404,
      FRIEND_MESSAGES.requestNotFound,
    );
    // a third person cannot accept it
    expectError(() => acceptFriendRequest({ userId: c, requesterId: a }), 404);
    expect(listFriends(a)).toEqual([]);
  });

  it("declines once; declining twice is a 404; a new request may follow", () => {
    const a = makeUser();
    const b = makeUser();
    sendFriendRequest({ userId: a, friendId: b });
    declineFriendRequest({ userId: b, requesterId: a });
    expect(listIncomingRequests(b)).toEqual([]);
    expectError(
      () => declineFriendRequest({ userId: b, requesterId: a }),
      404,
      FRIEND_MESSAGES.requestNotFound,
    );
    expect(listFriends(b)).toEqual([]);
    sendFriendRequest({ userId: a, friendId: b });
    expect(listIncomingRequests(b)).toHaveLength(1);
  });

  it("cannot decline an accepted friendship", () => {
    const a = makeUser();
    const b = makeUser();
    sendFriendRequest({ userId: a, friendId: b });
    acceptFriendRequest({ userId: b, requesterId: a });
    expectError(() => declineFriendRequest({ userId: b, requesterId: a }), 404);
    expect(listFriends(a)).toHaveLength(1);
  });

  it("parses friendId strictly (400)", () => {
    expect(parseFriendId({ friendId: 7 })).toBe(7);
    expect(parseFriendId({ friendId: "7" })).toBe(7);
    for (const bad of [undefined, null, "", "x", -1, 0, 1.5, true, "1e3"])
      expectError(() => parseFriendId({ friendId: bad }), 400);
    expectError(() => parseFriendId(null), 400);
  });
});

describe("searchUsers", () => {
  it("finds by substring, prefix first, never yourself, no emails", () => {
    const me = makeUser("searcher_zed");
    const p = makeUser("zedkin");
    const s = makeUser("mazed");
    makeUser("nomatch");
    const results = searchUsers({ userId: me, query: "ZED" });
    expect(results.map((r) => r.id)).toEqual([p, s]);
    expect(JSON.stringify(results)).not.toMatch(/@|email/);
  });

  it("treats % and _ literally", () => {
    const me = makeUser("pct_me");
    makeUser("plainname");
    expect(searchUsers({ userId: me, query: "%%" })).toEqual([]);
    expect(
      searchUsers({ userId: me, query: "t_m" }).map((r) => r.username),
    ).toEqual([]);
  });

  it("refuses fewer than 2 characters", () => {
    const me = makeUser();
    for (const q of ["", "a", " b "])
      expectError(
        () => searchUsers({ userId: me, query: q }),
        400,
        FRIEND_MESSAGES.queryTooShort,
      );
  });

  it("marks the relation to each result", () => {
    const me = makeUser("rel_me");
    const f = makeUser("rel_friend");
    const s = makeUser("rel_sent");
    const r = makeUser("rel_recv");
    sendFriendRequest({ userId: me, friendId: f });
    acceptFriendRequest({ userId: f, requesterId: me });
    sendFriendRequest({ userId: me, friendId: s });
    sendFriendRequest({ userId: r, friendId: me });
    const rel = Object.fromEntries(
      searchUsers({ userId: me, query: "rel_" }).map((x) => [
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
  it("counts settled bets between two people from each side", () => {
    const a = makeUser();
    const b = makeUser();
    const c = makeUser();
    const bet = (winner: number, status = "settled", other = b) => {
      const row = sqlite
        .prepare(
          `INSERT INTO bets (code, title, description, amount_cents, visibility, deadline, status, creator_id, winner_id, updated_at)
           VALUES (?, 't', 'd', 100, 'public', 0, ?, ?, ?, 0) RETURNING id`,
        )
        .get(
          `H${Math.random().toString(36).slice(2, 9)}`,
          status,
          a,
          status === "settled" ? winner : null,
        ) as { id: number };
      sqlite
        .prepare(
          "INSERT INTO bet_participants (bet_id, user_id, seat) VALUES (?, ?, 1), (?, ?, 2)",
        )
        .run(row.id, a, row.id, other);
    };
    bet(a);
    bet(a);
    bet(b);
    bet(a, "active");
    bet(c, "settled", c);
    expect(headToHead(a).get(b)).toEqual({ wins: 2, losses: 1 });
    expect(headToHead(b).get(a)).toEqual({ wins: 1, losses: 2 });
    expect(headToHead(a).get(c)).toEqual({ wins: 0, losses: 1 });
    sendFriendRequest({ userId: a, friendId: b });
    acceptFriendRequest({ userId: b, requesterId: a });
    expect(listFriends(b)[0]!.headToHead).toEqual({ wins: 1, losses: 2 });
  });
});
