import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listAppRoutes } from "../../../tests/support/route-table";
import { keepableFields, QUEUEABLE, queueableRoute } from "./queueable";

// docs/product-rules.md#acting-offline: the one list of routes whose writes
// wait on the device is the routes that declare it in their own module.
const declaresQueue = (file: string) =>
  /keepFormIfUnsent\(\s*args\s*,\s*\{\s*queue:\s*true\s*\}\s*\)/.test(
    fs.readFileSync(path.join("app", file), "utf8"),
  );

describe("the routes that wait", () => {
  it("are exactly those whose module declares `{ queue: true }`", () => {
    const declared = listAppRoutes()
      .filter((route) => !route.api && declaresQueue(route.file))
      .map((route) => route.path)
      .sort();
    expect(QUEUEABLE.map((route) => route.pattern).sort()).toEqual(declared);
  });

  it("never include paying, the password, the email or account data", () => {
    for (const action of [
      "/checkout/1",
      "/payment/1",
      "/profile/security",
      "/profile/data",
      "/profile",
      "/api/bets/1/join",
      "/logout",
      "/bet/1/pay",
      "//evil.example/create-bet",
    ])
      expect(queueableRoute(action), action).toBeNull();
  });

  it("are found by path, with or without a query", () => {
    expect(queueableRoute("/bet/12")?.what("join")).toBe("Join a bet");
    expect(queueableRoute("/bet/12/edit?x=1")?.what("")).toBe("Edit a bet");
    expect(queueableRoute("/friends")?.what("send-request")).toBe(
      "Friends: send request",
    );
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
