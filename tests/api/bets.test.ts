import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";

const server = useServer();

const DAY = 86_400_000;
const future = (days = 2) => new Date(Date.now() + days * DAY).toISOString();

function betBody(over: Record<string, unknown> = {}) {
  return {
    title: "Who wins the derby",
    description: "Home team wins the derby on Sunday.",
    amount: 25,
    deadline: future(),
    visibility: "public",
    ...over,
  };
}

async function newBet(client: Client, over: Record<string, unknown> = {}) {
  const res = await client.post("/api/bets", betBody(over));
  expect(res.status, res.text).toBe(201);
  return res.data as {
    id: number;
    code: string;
    updatedAt: string;
    [k: string]: unknown;
  };
}

describe("POST /api/bets", () => {
  it("creates a pending bet (201) with a 6-character code, creator as first participant", async () => {
    const { client, user } = await signUp(server.url);
    const res = await client.post("/api/bets", betBody());
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      title: "Who wins the derby",
      amount: 25,
      visibility: "public",
      status: "pending",
      creatorId: user.id,
      participantIds: [user.id],
      winnerId: null,
    });
    expect(res.data.code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    expect(Object.keys(res.data).sort()).toEqual(
      [
        "id",
        "code",
        "title",
        "description",
        "amount",
        "currency",
        "visibility",
        "deadline",
        "status",
        "creatorId",
        "participantIds",
        "winnerId",
        "createdAt",
        "updatedAt",
        "refereeId",
        "voidedAt",
        "paymentDueAt",
        "dispute",
      ].sort(),
    );
  });

  it("round-trips emoji, <script> and quotes exactly", async () => {
    const { client } = await signUp(server.url);
    const title = `🎲 <script>alert("x")</script> 'q' "dq"`;
    const description = `Ünïcödé & <b>bold</b> — "quotes" 'single' 🏆`;
    const created = await newBet(client, { title, description });
    const res = await client.get(`/api/bets/${created.id}`);
    expect(res.data.title).toBe(title);
    expect(res.data.description).toBe(description);
  });

  it("answers 401 without a session", async () => {
    const res = await new Client(server.url).post("/api/bets", betBody());
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ error: "Authentication required" });
  });

  it("answers 415 for a non-JSON body", async () => {
    const { client } = await signUp(server.url);
    const res = await client.request("POST", "/api/bets", {
      body: "title=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
  });

  it.each([
    [{ title: "a" }, { title: ["Title must be at least 2 characters."] }],
    [
      { description: " " },
      { description: ["Description must be at least 2 characters."] },
    ],
    [{ amount: -5 }, { amount: ["Amount must be a positive number."] }],
    [{ amount: "abc" }, { amount: ["Amount must be a positive number."] }],
    [
      { amount: 2.5 },
      { amount: ["Amount must be a whole number of dollars."] },
    ],
    [{ amount: 10001 }, { amount: ["Amount can be at most $10,000."] }],
    [{ deadline: "" }, { deadline: ["Please select a deadline."] }],
    [{ deadline: "not a date" }, { deadline: ["Please select a deadline."] }],
    [{ visibility: "friends" }, { visibility: ["Please select visibility."] }],
    [
      { title: "x".repeat(101) },
      { title: ["Title must be at most 100 characters."] },
    ],
  ])(
    "refuses %j with 400 and the product's message",
    async (over, fieldErrors) => {
      const { client } = await signUp(server.url);
      const res = await client.post("/api/bets", betBody(over));
      expect(res.status).toBe(400);
      expect(res.data.error).toBe(
        "Please check your form inputs and try again",
      );
      expect(res.data.fieldErrors).toEqual(fieldErrors);
    },
  );

  it("refuses a deadline in the past with 400 'Deadline must be in the future'", async () => {
    const { client } = await signUp(server.url);
    const res = await client.post(
      "/api/bets",
      betBody({ deadline: new Date(Date.now() - 60_000).toISOString() }),
    );
    expect(res.status).toBe(400);
    expect(res.data).toEqual({
      error: "Deadline must be in the future",
      fieldErrors: { deadline: ["Deadline must be in the future"] },
    });
  });

  it("counts the title limit in code points: 100 emoji are accepted", async () => {
    const { client } = await signUp(server.url);
    const res = await client.post(
      "/api/bets",
      betBody({ title: "🎲".repeat(100) }),
    );
    expect(res.status).toBe(201);
  });
});

describe("GET /api/bets (public feed)", () => {
  it("needs no session, lists public pending bets newest first, never private ones", async () => {
    const { client } = await signUp(server.url);
    const older = await newBet(client, { title: "Older public bet" });
    const priv = await newBet(client, {
      title: "Secret private bet",
      visibility: "private",
    });
    const newer = await newBet(client, { title: "Newer public bet" });
    const res = await new Client(server.url).get("/api/bets");
    expect(res.status).toBe(200);
    const ids = (res.data as { id: number }[]).map((b) => b.id);
    expect(ids).toContain(older.id);
    expect(ids).toContain(newer.id);
    expect(ids).not.toContain(priv.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(res.data.length).toBeLessThanOrEqual(50);
    for (const bet of res.data)
      expect(bet).toMatchObject({ visibility: "public", status: "pending" });
  });
});

describe("GET /api/bets/{id}", () => {
  it("answers the bet (200) to any signed-in user for a public bet", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const { client: other } = await signUp(server.url);
    const res = await other.get(`/api/bets/${bet.id}`);
    expect(res.status).toBe(200);
    expect(res.data.code).toBe(bet.code);
  });

  it("answers 401 without a session", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    expect(
      (await new Client(server.url).get(`/api/bets/${bet.id}`)).status,
    ).toBe(401);
  });

  it("answers 404 for a missing bet, a malformed id, and a private bet without access", async () => {
    const { client } = await signUp(server.url);
    const priv = await newBet(client, { visibility: "private" });
    const { client: other } = await signUp(server.url);
    for (const path of [
      "/api/bets/999999",
      "/api/bets/abc",
      `/api/bets/${priv.id}`,
    ]) {
      const res = await other.get(path);
      expect(res.status, path).toBe(404);
      expect(res.data).toEqual({
        error: "This bet could not be found or has expired.",
      });
    }
    expect((await client.get(`/api/bets/${priv.id}`)).status).toBe(200);
  });
});

describe("GET /api/bets/code/{code}", () => {
  it("finds a bet case-insensitively and records access to a private bet", async () => {
    const { client } = await signUp(server.url);
    const priv = await newBet(client, { visibility: "private" });
    const { client: other } = await signUp(server.url);
    expect((await other.get(`/api/bets/${priv.id}`)).status).toBe(404);
    const res = await other.get(`/api/bets/code/${priv.code.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.data.id).toBe(priv.id);
    expect((await other.get(`/api/bets/${priv.id}`)).status).toBe(200);
  });

  it("answers 404 with the product's message for an unknown or malformed code, 401 without a session", async () => {
    const { client } = await signUp(server.url);
    for (const code of ["ZZZZZZ", "abc", "TOOLONG7"]) {
      const res = await client.get(`/api/bets/code/${code}`);
      expect(res.status).toBe(404);
      expect(res.data).toEqual({
        error: "No bet found with that code. Please check and try again.",
      });
    }
    expect(
      (await new Client(server.url).get("/api/bets/code/ABCDEF")).status,
    ).toBe(401);
  });
});

describe("PUT /api/bets/{id}", () => {
  it("lets the creator edit a pending bet nobody joined (200) and bumps the version", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const res = await client.put(
      `/api/bets/${bet.id}`,
      betBody({ title: "Edited title", amount: 40, visibility: "private" }),
    );
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      id: bet.id,
      title: "Edited title",
      amount: 40,
      visibility: "private",
      code: bet.code,
    });
    expect(Date.parse(res.data.updatedAt)).toBeGreaterThan(
      Date.parse(bet.updatedAt),
    );
  });

  it.each([
    [{ title: "ab" }, { title: ["Title must be at least 3 characters"] }],
    [
      { description: "too short" },
      { description: ["Description must be at least 10 characters"] },
    ],
    [{ amount: 0 }, { amount: ["Amount must be positive"] }],
    [{ deadline: "garbage" }, { deadline: ["Invalid date format"] }],
  ])(
    "refuses %j with 400 and the product's edit message",
    async (over, fieldErrors) => {
      const { client } = await signUp(server.url);
      const bet = await newBet(client);
      const res = await client.put(`/api/bets/${bet.id}`, betBody(over));
      expect(res.status).toBe(400);
      expect(res.data.error).toBe("Error updating bet");
      expect(res.data.fieldErrors).toEqual(fieldErrors);
    },
  );

  it("answers 403 'You can only edit bets you've created.' to someone else", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const { client: other } = await signUp(server.url);
    const res = await other.put(`/api/bets/${bet.id}`, betBody());
    expect(res.status).toBe(403);
    expect(res.data).toEqual({
      error: "You can only edit bets you've created.",
    });
  });

  it("answers 409 once someone joined, 404 for a missing bet, 401 without a session", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const { client: other } = await signUp(server.url);
    expect((await other.post(`/api/bets/${bet.id}/join`)).status).toBe(200);
    const res = await client.put(`/api/bets/${bet.id}`, betBody());
    expect(res.status).toBe(409);
    expect(res.data.error).toBe(
      "You can only edit bets that are still pending.",
    );
    expect((await client.put("/api/bets/999999", betBody())).status).toBe(404);
    expect(
      (await new Client(server.url).put(`/api/bets/${bet.id}`, betBody()))
        .status,
    ).toBe(401);
  });
});

describe("DELETE /api/bets/{id}", () => {
  it("lets the creator delete a pending bet nobody joined (204); it is gone", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const res = await client.delete(`/api/bets/${bet.id}`);
    expect(res.status).toBe(204);
    expect((await client.get(`/api/bets/${bet.id}`)).status).toBe(404);
  });

  it("answers 403 to another user, 409 after a join, 404 missing, 401 visitor", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const { client: other } = await signUp(server.url);
    const forbidden = await other.delete(`/api/bets/${bet.id}`);
    expect(forbidden.status).toBe(403);
    expect(forbidden.data).toEqual({
      error: "You can only delete bets you've created.",
    });
    await other.post(`/api/bets/${bet.id}/join`);
    const conflict = await client.delete(`/api/bets/${bet.id}`);
    expect(conflict.status).toBe(409);
    expect((await client.get(`/api/bets/${bet.id}`)).status).toBe(200);
    expect((await client.delete("/api/bets/999999")).status).toBe(404);
    expect(
      (await new Client(server.url).delete(`/api/bets/${bet.id}`)).status,
    ).toBe(401);
  });
});

describe("POST /api/bets/{id}/join", () => {
  it("makes the second participant join (200): the bet becomes active and the creator is told", async () => {
    const { client, user: creator } = await signUp(server.url);
    const bet = await newBet(client);
    const { client: other, user: joiner } = await signUp(server.url);
    const res = await other.post(`/api/bets/${bet.id}/join`, {
      version: bet.updatedAt,
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      status: "active",
      participantIds: [creator.id, joiner.id],
    });
    const lists = await other.get("/api/user/bets/joined");
    expect(lists.data.map((b: { id: number }) => b.id)).toContain(bet.id);
  });

  it("refuses a third person with 409 'Bet already has the maximum number of participants.'", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const { client: second } = await signUp(server.url);
    await second.post(`/api/bets/${bet.id}/join`);
    const { client: third } = await signUp(server.url);
    const res = await third.post(`/api/bets/${bet.id}/join`);
    expect(res.status).toBe(409);
    expect(res.data).toEqual({
      error: "Bet already has the maximum number of participants.",
    });
  });

  it("refuses joining twice and joining one's own bet with 409", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const own = await client.post(`/api/bets/${bet.id}/join`);
    expect(own.status).toBe(409);
    expect(own.data.error).toBe("You have already joined this bet.");
  });

  it("refuses a join that saw older terms with 409 (docs/product-rules.md#joining)", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    await client.put(`/api/bets/${bet.id}`, betBody({ amount: 500 }));
    const { client: other } = await signUp(server.url);
    const res = await other.post(`/api/bets/${bet.id}/join`, {
      version: bet.updatedAt,
    });
    expect(res.status).toBe(409);
    expect(res.data).toEqual({
      error: "This bet changed while you were looking. Please review it again.",
    });
  });

  it("answers 400 for a malformed version, 404 for a private bet without access, 401 for a visitor", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const priv = await newBet(client, { visibility: "private" });
    const { client: other } = await signUp(server.url);
    const bad = await other.post(`/api/bets/${bet.id}/join`, {
      version: "yesterday",
    });
    expect(bad.status).toBe(400);
    expect(bad.data.fieldErrors.version).toBeDefined();
    const hidden = await other.post(`/api/bets/${priv.id}/join`);
    expect(hidden.status).toBe(404);
    expect((await other.post("/api/bets/999999/join")).status).toBe(404);
    expect(
      (await new Client(server.url).post(`/api/bets/${bet.id}/join`)).status,
    ).toBe(401);
    // With the code opened, the private bet can be joined.
    await other.get(`/api/bets/code/${priv.code}`);
    expect((await other.post(`/api/bets/${priv.id}/join`)).status).toBe(200);
  });

  it("10 simultaneous joins over HTTP give exactly one new participant", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const people = await Promise.all(
      Array.from({ length: 10 }, () => signUp(server.url)),
    );
    const results = await Promise.all(
      people.map(({ client: c }) => c.post(`/api/bets/${bet.id}/join`)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const after = await client.get(`/api/bets/${bet.id}`);
    expect(after.data.participantIds).toHaveLength(2);
  });
});

describe("GET /api/user/bets/{created|joined|completed}", () => {
  it("lists my bets with `type` by my role; 401 for a visitor; 404 for an unknown list", async () => {
    const { client: alice } = await signUp(server.url);
    const { client: bob } = await signUp(server.url);
    const mine = await newBet(alice);
    const theirs = await newBet(bob);
    await alice.post(`/api/bets/${theirs.id}/join`);
    const created = await alice.get("/api/user/bets/created");
    expect(created.status).toBe(200);
    expect(created.data).toEqual([
      expect.objectContaining({ id: mine.id, type: "created" }),
    ]);
    const joined = await alice.get("/api/user/bets/joined");
    expect(joined.data).toEqual([
      expect.objectContaining({
        id: theirs.id,
        type: "joined",
        status: "active",
      }),
    ]);
    const bobCreated = await bob.get("/api/user/bets/created");
    expect(bobCreated.data).toEqual([
      expect.objectContaining({ id: theirs.id, type: "created" }),
    ]);
    const completed = await alice.get("/api/user/bets/completed");
    expect(completed.status).toBe(200);
    expect(completed.data).toEqual([]);
    expect(
      (await new Client(server.url).get("/api/user/bets/created")).status,
    ).toBe(401);
    expect((await alice.get("/api/user/bets/other")).status).toBe(404);
  });
});

describe("GET /api/users/{id}", () => {
  it("exposes public fields only; 404 unknown; 401 visitor", async () => {
    const { client } = await signUp(server.url);
    const { user: other } = await signUp(server.url);
    const res = await client.get(`/api/users/${other.id}`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      id: other.id,
      username: other.username,
      avatarUrl: null,
      winCount: 0,
      lossCount: 0,
      paymentRecord: { owed: 0, paid: 0, paidOnTime: 0, overdue: 0 },
    });
    expect(res.text).not.toMatch(/email|password|hash/i);
    expect((await client.get("/api/users/999999")).status).toBe(404);
    expect((await client.get("/api/users/abc")).status).toBe(404);
    expect(
      (await new Client(server.url).get(`/api/users/${other.id}`)).status,
    ).toBe(401);
  });
});
