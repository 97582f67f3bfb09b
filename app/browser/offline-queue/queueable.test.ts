import { describe, expect, it, vi } from "vitest";
import { keepableFields, queueableRoute } from "./queueable";

// docs/product-rules.md#acting-offline: the pages whose writes wait on the
// device are those whose `handle` says so, listed by the server in the
// route manifest file (which routes do is tests/lint/route-traits.test.ts).
vi.stubGlobal("window", {
  __fairshakeOffline: [
    { pattern: "/create-bet", offline: { label: "kept.createBet" } },
    { pattern: "/bet/:id/edit", offline: { label: "kept.editBet" } },
    {
      pattern: "/friends",
      offline: {
        label: "kept.friends",
        intents: { send: "kept.sendFriendRequest" },
      },
    },
    {
      pattern: "/bet/:id",
      offline: {
        label: "kept.bet",
        intents: { join: "kept.joinBet", nudge: "kept.nudge" },
      },
    },
  ],
});

describe("the routes that wait", () => {
  it("are only the listed ones, never another host", () => {
    for (const action of [
      "/checkout/1",
      "/payment/1",
      "/profile/security",
      "/api/bets/1/join",
      "/logout",
      "/bet/1/pay",
      "//evil.example/create-bet",
      "https://evil.example/create-bet",
      "create-bet",
    ])
      expect(queueableRoute(action), action).toBeNull();
  });

  it("are found by path, in any case, with or without a query", () => {
    expect(queueableRoute("/bet/12")?.what("join")).toBe("kept.joinBet");
    expect(queueableRoute("/bet/12/edit?x=1")?.what("")).toBe("kept.editBet");
    expect(queueableRoute("/Create-Bet")?.what("x")).toBe("kept.createBet");
    expect(queueableRoute("/friends")?.what("send")).toBe(
      "kept.sendFriendRequest",
    );
  });

  // docs/product-rules.md#languages: the list says a kept action's name in
  // the reader's language, so what is kept is a message key, never words.
  it("name a kept action by a message key, the route's own for an unknown intent", () => {
    expect(queueableRoute("/bet/12")?.what("cancel-bet")).toBe("kept.bet");
    expect(queueableRoute("/friends")?.what("toString")).toBe("kept.friends");
    expect(queueableRoute("/friends")?.what("")).toBe("kept.friends");
  });

  it("are none without the manifest's list (the development server)", () => {
    const list = window.__fairshakeOffline;
    delete window.__fairshakeOffline;
    try {
      expect(queueableRoute("/create-bet")).toBeNull();
    } finally {
      window.__fairshakeOffline = list;
    }
  });
});

describe("keepableFields", () => {
  it("leaves out an empty password field", () => {
    expect(
      keepableFields([
        ["username", "ann"],
        ["email", "ann@example.com"],
        ["currentPassword", ""],
      ]),
    ).toEqual([
      ["username", "ann"],
      ["email", "ann@example.com"],
    ]);
  });

  it("keeps nothing of a form with a password or a card typed", () => {
    expect(keepableFields([["currentPassword", "hunter22"]])).toBeNull();
    expect(keepableFields([["newPassword", "x"]])).toBeNull();
    expect(keepableFields([["cardNumber", "4242"]])).toBeNull();
  });
});
