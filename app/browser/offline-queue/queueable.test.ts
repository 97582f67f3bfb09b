import { describe, expect, it, vi } from "vitest";
import { keepableFields, queueableRoute } from "./queueable";

// docs/product-rules.md#acting-offline: the pages whose writes wait on the
// device are those whose `handle` says so, listed by the server in the
// route manifest file (which routes do is tests/lint/route-traits.test.ts).
vi.stubGlobal("window", {
  __fairshakeOffline: [
    { pattern: "/create-bet", offline: { label: "Create a bet" } },
    { pattern: "/bet/:id/edit", offline: { label: "Edit a bet" } },
    { pattern: "/friends", offline: { label: "Friends", namesIntent: true } },
    {
      pattern: "/bet/:id",
      offline: {
        label: "Bet",
        namesIntent: true,
        intents: { join: "Join a bet", nudge: "Nudge" },
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
    expect(queueableRoute("/bet/12")?.what("join")).toBe("Join a bet");
    expect(queueableRoute("/bet/12")?.what("cancel-bet")).toBe(
      "Bet: cancel bet",
    );
    expect(queueableRoute("/bet/12/edit?x=1")?.what("")).toBe("Edit a bet");
    expect(queueableRoute("/Create-Bet")?.what("x")).toBe("Create a bet");
    expect(queueableRoute("/friends")?.what("send-request")).toBe(
      "Friends: send request",
    );
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
