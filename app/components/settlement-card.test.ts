// The settlement card rendered on the server from a real settlement view,
// the way /bet/{id} will render it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import {
  approveSettlement,
  proposeSettlement,
} from "~/models/settlements/settlement.server";
import { getSettlementView } from "~/models/settlements/settlement-view.server";
import { person } from "../../tests/support/factories";
import { activeBet } from "../../tests/support/factories";
import { SettlementCard, toSettlementCardData } from "./settlement-card";
import { I18nProvider } from "./i18n";
import { compiledMessages } from "~/framework/catalogs.server";

/** In English, as a page in English hands it down from the root. */
const inEnglish = (child: React.ReactElement) =>
  createElement(MemoryRouter, null, [
    createElement(I18nProvider, {
      key: "i18n",
      language: "en",
      messages: compiledMessages("en"),
      children: child,
    }),
  ]);

async function render(betId: number, viewerId: number, extra = {}) {
  const view = await getSettlementView({ betId, userId: viewerId });
  if (!view) return null;
  return renderToStaticMarkup(
    inEnglish(
      createElement(SettlementCard, {
        data: toSettlementCardData(view, viewerId),
        ...extra,
      }),
    ),
  );
}

describe("SettlementCard", () => {
  it("shows the proposal, both approvals and links only for the other side", async () => {
    const { creator, joiner, bet } = await activeBet(100);
    expect(await render(bet.id, creator.id)).toBeNull();
    await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
      notes: "Clear win",
    });
    const forCreator = (await render(bet.id, creator.id))!;
    expect(forCreator).toContain(
      `${joiner.username} proposed <strong>${joiner.username}</strong> as the winner.`,
    );
    expect(forCreator).toContain("Clear win");
    expect(forCreator).toContain("Approved");
    expect(forCreator).toContain("Waiting");
    expect(forCreator).toContain(`href="/settlements/${bet.id}/approve"`);
    expect(forCreator).toContain(`href="/settlements/${bet.id}/reject"`);
    const forProposer = (await render(bet.id, joiner.id))!;
    expect(forProposer).not.toContain("/approve");
    const stranger = await person("s");
    expect(await render(bet.id, stranger.id)).not.toContain("/approve");
  });

  it("shows the winner and Pay Winnings to the loser once settled", async () => {
    const { creator, joiner, bet } = await activeBet(100);
    await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
    });
    await approveSettlement({ betId: bet.id, userId: creator.id });
    const loser = (await render(bet.id, creator.id, { demoPayment: true }))!;
    expect(loser).toContain(`Winner: ${joiner.username}`);
    expect(loser).toContain("$97.50");
    expect(loser).toContain("Pay Winnings");
    expect(loser).toContain("Demo Payment Process");
    expect(await render(bet.id, joiner.id)).not.toContain("Pay Winnings");
    expect(await render(bet.id, creator.id, { showOutcome: false })).toBe("");
  });

  it("shows the answer deadline (docs/product-rules.md#answer-windows) and a proposal to call it off (docs/product-rules.md#void)", async () => {
    const { creator, joiner, bet } = await activeBet(100);
    const now = Date.UTC(2026, 10, 23, 15, 0);
    await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      outcome: "void",
      now,
    });
    const view = (await getSettlementView({
      betId: bet.id,
      userId: creator.id,
    }))!;
    const html = renderToStaticMarkup(
      inEnglish(
        createElement(SettlementCard, {
          data: toSettlementCardData(view, creator.id, "America/New_York"),
        }),
      ),
    );
    expect(html).toContain("calling it off (no winner, no payment)");
    expect(html).toContain("Approved automatically on");
    // 72 h later, 3:00 PM UTC is 10:00 AM in New York.
    expect(html).toContain("Nov 26, 10:00 AM");
    expect(html).toContain("unless you reject it.");
    const proposer = (await render(bet.id, joiner.id))!;
    expect(proposer).toContain("unless the other side rejects it.");
  });
});
