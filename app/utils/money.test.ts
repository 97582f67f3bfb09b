import { describe, expect, it } from "vitest";
import {
  centsToSignedString,
  feeCents,
  formatCents,
  formatCentsShort,
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

  it("writes dollars exactly as en-US Intl.NumberFormat does, without building one", () => {
    const usd = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: "USD",
    });
    const usdWhole = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: "USD",
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    });
    const intlShort = (cents: number) =>
      cents % 100 === 0
        ? usdWhole.format(cents / 100)
        : usd.format(cents / 100);
    const cases = [
      0,
      -0,
      1,
      -1,
      5,
      99,
      100,
      101,
      999,
      1000,
      12_345,
      99_999,
      100_000,
      123_450,
      1_000_000,
      -1_000_000,
      123_456_789,
      -98_765_432_1,
      999_999_999_999_99,
      1e15,
      -1e15,
      1e21,
      0.5,
      1.5,
      -2.5,
      12.4,
      12.6,
      -0.4,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    for (let cents = -300_000; cents <= 1_200_000; cents += 37)
      cases.push(cents);
    for (let i = 0; i < 2_000; i++)
      cases.push(Math.floor((Math.random() - 0.2) * 10 ** (2 + (i % 12))));
    for (const cents of cases) {
      expect(formatCents(cents), String(cents)).toBe(usd.format(cents / 100));
      expect(formatCentsShort(cents), String(cents)).toBe(intlShort(cents));
    }
  });

  it("computes the win rate as docs/product-rules.md#amounts-and-limits says", () => {
    expect(winRate(0, 0)).toBe(0);
    expect(winRate(0, 3)).toBe(0);
    expect(winRate(2, 1)).toBe(67);
  });
});
