import { describe, expect, it } from "vitest";
import { concernsPage } from "./live-updates";

describe("concernsPage (docs/product-rules.md#live-pages)", () => {
  const bet = (betId: number) => ({ type: "bet" as const, betId });

  it("a bet's events concern that bet's pages and the lists, not another bet's", () => {
    for (const path of [
      "/bet/7",
      "/bet/7/rule",
      "/settlements/7/approve",
      "/settlements/7/reject",
      "/propose-settlement/7",
      "/settle-bet/7",
      "/payment/7",
      "/",
      "/my-bets",
      "/notifications",
    ])
      expect(concernsPage(bet(7), path), path).toBe(true);
    for (const path of ["/bet/70", "/bet/8", "/settlements/17/approve"])
      expect(concernsPage(bet(7), path), path).toBe(false);
    expect(concernsPage(bet(7), "/friends")).toBe(false);
  });

  it("friends concern the friends pages; activity concerns every page (the header)", () => {
    expect(concernsPage({ type: "friends" }, "/friends")).toBe(true);
    expect(concernsPage({ type: "friends" }, "/bet/3")).toBe(false);
    for (const path of ["/", "/bet/3", "/create-bet", "/profile/security"])
      expect(concernsPage({ type: "activity" }, path), path).toBe(true);
  });
});
