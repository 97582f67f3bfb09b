import { describe, expect, it } from "vitest";
import { BET_NOT_FOUND } from "~/domain/bet";
import { isDomainError } from "~/utils/errors";
import { betIdOrNotFound } from "./bet-id.server";

function refusalOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isDomainError(error))
      return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("a route's bet id", () => {
  it("answers a malformed bet id with the same 404 as an unseen bet", () => {
    expect(betIdOrNotFound("7")).toBe(7);
    for (const raw of [undefined, "x", "0", "1.5"])
      expect(refusalOf(() => betIdOrNotFound(raw))).toEqual({
        status: 404,
        message: BET_NOT_FOUND,
      });
    expect(refusalOf(() => betIdOrNotFound("x", "Nothing to settle"))).toEqual({
      status: 404,
      message: "Nothing to settle",
    });
  });
});
