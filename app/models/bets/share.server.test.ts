import { describe, expect, it } from "vitest";
import { registerUser } from "../accounts/user.server";
import { createBet } from "./bet.server";
import { parseBetInput } from "./bet-input.server";
import {
  getSharePreview,
  shareImageVersion,
  shareLinks,
  shareMeta,
} from "./share.server";

const visitor = { userId: null, clientAddress: "192.0.2.1" };

async function bet(visibility: "public" | "private") {
  const user = await registerUser({
    username: `sharer${visibility}`,
    email: `sharer${visibility}@example.com`,
    password: "secret123",
  });
  return await createBet({
    creatorId: user.id,
    input: parseBetInput(
      {
        title: "Share me",
        description: "A bet to share",
        amount: 12,
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
        visibility,
      },
      "create",
    ),
  });
}

describe("share previews (docs/product-rules.md#private-bets)", () => {
  it("shows a public bet to anyone, with plain links", async () => {
    const b = await bet("public");
    const preview = await getSharePreview(b.id, null, visitor);
    expect(preview?.title).toBe("Share me");
    const links = shareLinks(b);
    expect(links.shareUrl).toMatch(new RegExp(`/share/${b.id}$`));
    expect(links.joinUrl).toMatch(new RegExp(`/join/${b.code}$`));
    expect(shareMeta(preview!)).toEqual({
      title: "Share me",
      description: "A bet to share",
      image: expect.stringMatching(
        new RegExp(`^https?://.+/api/bets/${b.id}/share-image$`),
      ),
      url: links.shareUrl,
      code: b.code,
    });
  });

  it("shows a private bet only with its code, and its links carry the code", async () => {
    const b = await bet("private");
    expect(await getSharePreview(b.id, null, visitor)).toBeNull();
    expect(await getSharePreview(b.id, "WRONG1", visitor)).toBeNull();
    expect(
      (await getSharePreview(b.id, b.code.toLowerCase(), visitor))?.id,
    ).toBe(b.id);
    const links = shareLinks(b);
    expect(links.shareUrl).toMatch(
      new RegExp(`/share/${b.id}\\?code=${b.code}$`),
    );
    expect(links.imagePath).toBe(
      `/api/bets/${b.id}/share-image?w=720&v=${shareImageVersion(b)}&code=${b.code}`,
    );
  });

  it("is null for a missing bet", async () => {
    expect(await getSharePreview(987654, null, visitor)).toBeNull();
  });
});
