// sharp's libvips settings as the server runs them (docs/decisions/archive/0820-upload-memory-one-copy.md):
// with MALLOC_ARENA_MAX set (the Dockerfile, npm start, the bench), sharp no
// longer limits libvips to one thread by itself, so the avatar model must.
import { describe, expect, it } from "vitest";
import { processAvatar } from "./avatar.server";

describe("sharp as the avatar model loads it", () => {
  it("decodes on one libvips thread with no operation cache", async () => {
    process.env.MALLOC_ARENA_MAX ??= "1";
    const { default: sharp } = await import("sharp");
    sharp.concurrency(4); // what sharp chooses under MALLOC_ARENA_MAX on a 4-core host
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: "#047857" },
    })
      .png()
      .toBuffer();
    const webp = await processAvatar(png);
    expect((await sharp(webp).metadata()).format).toBe("webp");
    expect(sharp.concurrency()).toBe(1);
    expect(sharp.cache().items.max).toBe(0);
  });
});
