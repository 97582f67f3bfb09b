import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";

const server = useServer();

describe("friend requests over the API", () => {
  it("send (201) → incoming list → accept (200) → both friends lists", async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    const sent = await a.client.post("/api/friends", { friendId: b.user.id });
    expect(sent.status).toBe(201);

    const incoming = await b.client.get("/api/friend-requests");
    expect(incoming.status).toBe(200);
    expect(incoming.data).toHaveLength(1);
    expect(incoming.data[0].friend).toMatchObject({
      id: a.user.id,
      username: a.user.username,
      winCount: 0,
      lossCount: 0,
    });
    expect(JSON.stringify(incoming.data)).not.toMatch(/email|@example/);
    expect((await a.client.get("/api/friend-requests")).data).toEqual([]);

    const accepted = await b.client.post("/api/friends/accept", {
      friendId: a.user.id,
    });
    expect(accepted.status).toBe(200);
    const aFriends = await a.client.get("/api/friends");
    const bFriends = await b.client.get("/api/friends");
    expect(aFriends.data.map((e: any) => e.friend.id)).toEqual([b.user.id]);
    expect(bFriends.data.map((e: any) => e.friend.id)).toEqual([a.user.id]);
    expect(aFriends.data[0]).toMatchObject({
      id: expect.any(Number),
      friend: { username: b.user.username, winCount: 0, lossCount: 0 },
    });

    // the requester hears about it
    const activity = await a.client.get("/api/activity");
    expect(activity.status).toBe(200);
    expect(activity.data[0]).toMatchObject({
      type: "friend_request_accepted",
      actorId: b.user.id,
      betId: null,
      read: false,
    });
  });

  it("400 for yourself or a malformed id, 404 unknown user", async () => {
    const a = await signUp(server.url);
    const self = await a.client.post("/api/friends", { friendId: a.user.id });
    expect(self.status).toBe(400);
    expect(self.data.error).toBe(
      "You cannot send a friend request to yourself.",
    );
    for (const body of [{}, { friendId: "abc" }, { friendId: -3 }]) {
      const bad = await a.client.post("/api/friends", body);
      expect(bad.status).toBe(400);
      expect(bad.data.fieldErrors.friendId).toEqual([
        "friendId must be a user id",
      ]);
    }
    const unknown = await a.client.post("/api/friends", { friendId: 987654 });
    expect(unknown.status).toBe(404);
    expect(unknown.data.error).toBe("User not found");
  });

  it("409 already requested, reverse request, already friends", async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    await a.client.post("/api/friends", { friendId: b.user.id });
    const again = await a.client.post("/api/friends", { friendId: b.user.id });
    expect(again.status).toBe(409);
    expect(again.data.error).toBe(
      "You have already sent this user a friend request.",
    );
    const reverse = await b.client.post("/api/friends", {
      friendId: a.user.id,
    });
    expect(reverse.status).toBe(409);
    expect(reverse.data.error).toBe(
      "This user has already sent you a friend request — accept it instead.",
    );
    await b.client.post("/api/friends/accept", { friendId: a.user.id });
    const friends = await a.client.post("/api/friends", {
      friendId: b.user.id,
    });
    expect(friends.status).toBe(409);
    expect(friends.data.error).toBe("You are already friends with this user.");
  });

  it("404 accepting or declining a request you did not receive; decline twice", async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    await a.client.post("/api/friends", { friendId: b.user.id });
    const own = await a.client.post("/api/friends/accept", {
      friendId: b.user.id,
    });
    expect(own.status).toBe(404);
    expect(own.data.error).toBe("Friend request not found");
    const declined = await b.client.post("/api/friends/decline", {
      friendId: a.user.id,
    });
    expect(declined.status).toBe(200);
    const twice = await b.client.post("/api/friends/decline", {
      friendId: a.user.id,
    });
    expect(twice.status).toBe(404);
    expect((await b.client.get("/api/friends")).data).toEqual([]);
    const bad = await b.client.post("/api/friends/accept", { friendId: "x" });
    expect(bad.status).toBe(400);
  });

  it("401 without a session on every call; 415 without JSON", async () => {
    const anon = new Client(server.url);
    for (const path of [
      "/api/friends",
      "/api/friend-requests",
      "/api/users/search?q=ab",
      "/api/activity",
    ])
      expect((await anon.get(path)).status).toBe(401);
    for (const path of [
      "/api/friends",
      "/api/friends/accept",
      "/api/friends/decline",
      "/api/activity/read",
    ])
      expect((await anon.post(path, { friendId: 1 })).status).toBe(401);
    const a = await signUp(server.url);
    const form = await a.client.request("POST", "/api/friends", {
      body: "friendId=1",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
  });
});

describe("GET /api/users/search", () => {
  it("finds by substring, never yourself, never emails", async () => {
    const stem = `srch${Date.now().toString(36)}`;
    const me = await signUp(server.url, `${stem}me`);
    const other = await signUp(server.url, `${stem}other`);
    const res = await me.client.get(
      `/api/users/search?q=${stem.toUpperCase()}`,
    );
    expect(res.status).toBe(200);
    expect(res.data).toEqual([
      {
        id: other.user.id,
        username: other.user.username,
        avatarUrl: null,
        winCount: 0,
        lossCount: 0,
        paymentRecord: { owed: 0, paid: 0, paidOnTime: 0, overdue: 0 },
      },
    ]);
    expect(res.text).not.toMatch(/email|@example\.com/);
    const none = await me.client.get("/api/users/search?q=zzzz-nobody");
    expect(none.data).toEqual([]);
  });

  it("400 'Search query too short' under 2 characters", async () => {
    const me = await signUp(server.url);
    for (const q of ["", "a", "%20b%20"]) {
      const res = await me.client.get(`/api/users/search?q=${q}`);
      expect(res.status).toBe(400);
      expect(res.data.error).toBe("Search query too short");
    }
    expect((await me.client.get("/api/users/search")).status).toBe(400);
  });
});

describe("activity", () => {
  it("lists newest first and POST /api/activity/read clears the unread", async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    const c = await signUp(server.url);
    await b.client.post("/api/friends", { friendId: a.user.id });
    await c.client.post("/api/friends", { friendId: a.user.id });
    const list = await a.client.get("/api/activity");
    expect(list.data.map((e: any) => e.actorId)).toEqual([
      c.user.id,
      b.user.id,
    ]);
    expect(list.data[0]).toMatchObject({
      type: "friend_request_received",
      message: `${c.user.username} sent you a friend request`,
      read: false,
    });
    expect(Date.parse(list.data[0].createdAt)).not.toBeNaN();
    const read = await a.client.post("/api/activity/read");
    expect(read.status).toBe(204);
    expect(read.text).toBe("");
    const after = await a.client.get("/api/activity");
    expect(after.data.every((e: any) => e.read)).toBe(true);
    // GET never marks read: b's event stays unread after two reads
    await c.client.post("/api/friends", { friendId: b.user.id });
    await b.client.get("/api/activity");
    const again = await b.client.get("/api/activity");
    expect(again.data[0].read).toBe(false);
  });
});

describe("wrong paths and methods", () => {
  it("answers 404 for an unknown friend action and 405 for a GET on an action", async () => {
    const a = await signUp(server.url);
    const unknown = await a.client.post("/api/friends/befriend", {
      friendId: 1,
    });
    expect(unknown.status).toBe(404);
    for (const path of [
      "/api/friends/accept",
      "/api/activity/read",
      "/api/user/profile",
      "/api/user/payment-methods",
    ]) {
      const res = await a.client.get(path);
      expect(res.status).toBe(405);
      expect(res.data).toEqual({ error: "Method not allowed" });
    }
  });
});

describe("simultaneous requests", () => {
  it("two people asking each other at once make one request; ten repeats make one", async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    const [ab, ba] = await Promise.all([
      a.client.post("/api/friends", { friendId: b.user.id }),
      b.client.post("/api/friends", { friendId: a.user.id }),
    ]);
    expect([ab.status, ba.status].sort()).toEqual([201, 409]);
    const c = await signUp(server.url);
    const d = await signUp(server.url);
    const repeats = await Promise.all(
      Array.from({ length: 10 }, () =>
        c.client.post("/api/friends", { friendId: d.user.id }),
      ),
    );
    expect(repeats.filter((r) => r.status === 201)).toHaveLength(1);
    expect(repeats.filter((r) => r.status === 409)).toHaveLength(9);
    expect((await d.client.get("/api/friend-requests")).data).toHaveLength(1);
  });
});
