import { describe, expect, it } from "vitest";
import {
  centsToSignedString,
  feeCents,
  formatCents,
  splitPayout,
  winRate,
} from "./money";

describe("feeCents", () => {
  it("rounds 2.5% half up to the cent", () => {
    expect(feeCents(1500)).toBe(38); // $15 → $0.375 → $0.38
    expect(feeCents(10_000)).toBe(250);
    expect(feeCents(100)).toBe(3); // $1 → $0.025 → $0.03
    expect(feeCents(300)).toBe(8); // $3 → $0.075 → $0.08
    expect(feeCents(200)).toBe(5);
  });

  it("keeps fee + net == amount for every whole dollar from $1 to $10,000", () => {
    for (let dollars = 1; dollars <= 10_000; dollars++) {
      const amount = dollars * 100;
      const { feeCents: fee, netCents: net } = splitPayout(amount);
      expect(fee + net).toBe(amount);
      // Half up against an exact reference computed in integers ×1000.
      const exactTenthsOfCent = amount * 25; // amount × 2.5% in 1/1000 dollars
      const expected = Math.floor((exactTenthsOfCent + 500) / 1000);
      if (fee !== expected)
        throw new Error(`fee of $${dollars} is ${fee}, expected ${expected}`);
    }
  });
});

describe("formatting", () => {
  it("formats cents as US dollars", () => {
    expect(formatCents(123_450)).toBe("$1,234.50");
    expect(centsToSignedString(-10_000)).toBe("-100.00");
    expect(centsToSignedString(250)).toBe("2.50");
    expect(centsToSignedString(-5)).toBe("-0.05");
  });

  it("computes the win rate as docs/product-rules.md#amounts-and-limits says", () => {
    expect(winRate(0, 0)).toBe(0);
    expect(winRate(0, 3)).toBe(0);
    expect(winRate(2, 1)).toBe(67);
  });
});
