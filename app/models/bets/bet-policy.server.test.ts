// Bets, policy: joinRefusal (docs/product-rules.md#joining), the one answer
// to 'may this person join, and if not, why' that the pages show and
// joinBet enforces.
import { describe, expect, it } from "vitest";
import {
  ALREADY_IN,
  BET_FULL,
  JOIN_CANCELLED,
  JOIN_SETTLED,
  REFEREE_CANNOT_JOIN,
  joinRefusal,
  mayJoinBet,
  type JoinFacts,
} from "./bet-policy.server";

const CREATOR = 1;
const REFEREE = 2;
const JOINER = 3;
const open = (over: Partial<JoinFacts> = {}): JoinFacts => ({
  status: "pending",
  refereeId: REFEREE,
  participants: [{ id: CREATOR }],
  ...over,
});

describe("joinRefusal", () => {
  it("lets anyone else into a pending bet with a free seat", () => {
    expect(joinRefusal(open(), JOINER)).toBeNull();
    expect(mayJoinBet(open(), JOINER)).toBe(true);
  });

  it("refuses the creator, the referee, a closed bet and a full one, each with its message", () => {
    const answers: [JoinFacts, number, string][] = [
      [open(), CREATOR, ALREADY_IN],
      [open(), REFEREE, REFEREE_CANNOT_JOIN],
      [open({ status: "cancelled" }), JOINER, JOIN_CANCELLED],
      [open({ status: "settled" }), JOINER, JOIN_SETTLED],
      [open({ status: "active" }), JOINER, BET_FULL],
      [
        open({ participants: [{ id: CREATOR }, { id: JOINER + 1 }] }),
        JOINER,
        BET_FULL,
      ],
    ];
    for (const [bet, userId, message] of answers) {
      expect(joinRefusal(bet, userId)).toMatchObject({ status: 409, message });
      expect(mayJoinBet(bet, userId)).toBe(false);
    }
  });

  it("answers a participant before the bet's status, as joinBet always has", () => {
    const joined = open({
      status: "active",
      participants: [{ id: CREATOR }, { id: JOINER }],
    });
    expect(joinRefusal(joined, JOINER)?.message).toBe(ALREADY_IN);
    expect(joinRefusal(open({ status: "settled" }), REFEREE)?.message).toBe(
      REFEREE_CANNOT_JOIN,
    );
  });

  it("words each refusal for the join page", () => {
    expect(joinRefusal(open(), REFEREE)?.shown).toBe(
      "You are this bet's referee, so you cannot join it.",
    );
    expect(joinRefusal(open(), CREATOR)?.shown).toBe(
      "You are already in this bet.",
    );
    expect(joinRefusal(open({ status: "cancelled" }), JOINER)?.shown).toBe(
      "This bet has been settled or cancelled and can no longer be joined.",
    );
    expect(joinRefusal(open({ status: "active" }), JOINER)?.shown).toBe(
      undefined,
    );
  });
});
