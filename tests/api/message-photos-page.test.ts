// The bet page's message form with its photos, as a browser without
// JavaScript sends it (docs/product-rules.md#messages): a plain multipart
// POST to /bet/{id}. It is taken and goes back to the conversation; a
// refusal says why and gives the typed text back; the page's multipart body
// alone may be as large as four photos, its other forms keep the form limit.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { newBet, joinBetAs, person } from "../support/world";
import { solidImage } from "../support/images";
import { postStreamed } from "../support/streaming";

const server = useServer();

const html = { Accept: "text/html" };

function messageForm(
  body: string,
  files: { bytes: Uint8Array; name: string; type?: string }[],
) {
  const form = new FormData();
  form.set("intent", "message");
  form.set("body", body);
  for (const f of files)
    form.append(
      "photo",
      new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "image/jpeg" }),
      f.name,
    );
  // A browser sends an empty part for an input with nothing chosen.
  if (files.length === 0)
    form.append(
      "photo",
      new Blob([], { type: "application/octet-stream" }),
      "",
    );
  return form;
}

async function activeBet() {
  const creator = await person(server.url, "fc");
  const joiner = await person(server.url, "fj");
  const bet = await newBet(creator, { visibility: "public" });
  await joinBetAs(joiner, bet);
  return { bet, creator, joiner };
}

describe("the bet page's message form with photos, without JavaScript", () => {
  it("takes a message with two photos and goes back to the conversation; the other side reads them", async () => {
    const { bet, creator, joiner } = await activeBet();
    const jpeg = await solidImage(2400, 1200, "jpeg");
    const png = await solidImage(300, 200, "png");
    const res = await creator.client.request("POST", `/bet/${bet.id}`, {
      body: messageForm("The finish line, twice.", [
        { bytes: jpeg, name: "a.jpg" },
        { bytes: png, name: "b.png", type: "image/png" },
      ]),
      headers: html,
    });
    expect([302, 303]).toContain(res.status);
    expect(res.headers.get("Location")).toBe(`/bet/${bet.id}#messages`);
    const list = await joiner.client.get(`/api/bets/${bet.id}/messages`);
    expect(list.data).toHaveLength(1);
    expect(list.data[0].body).toBe("The finish line, twice.");
    expect(
      list.data[0].photos.map((p: { width: number; height: number }) => [
        p.width,
        p.height,
      ]),
    ).toEqual([
      [1600, 800],
      [300, 200],
    ]);
    // The page shows the thumbnails, each a link to the photo.
    const page = await joiner.client.get(`/bet/${bet.id}`, html);
    const [photo] = list.data[0].photos as { url: string }[];
    expect(page.text).toContain(`href="${photo!.url}"`);
    expect(page.text).toContain(`src="${photo!.url}?size=thumb"`);
  });

  it("a text-only message still goes as multipart with an empty file part", async () => {
    const { bet, creator } = await activeBet();
    const res = await creator.client.request("POST", `/bet/${bet.id}`, {
      body: messageForm("Just words.", []),
      headers: html,
    });
    expect([302, 303]).toContain(res.status);
    const list = await creator.client.get(`/api/bets/${bet.id}/messages`);
    expect(list.data.map((m: { photos: unknown[] }) => m.photos)).toEqual([[]]);
  });

  it("a 12 MB photo, a non-image named .jpg and a fifth photo are refused with a message, the text given back", async () => {
    const { bet, creator } = await activeBet();
    const big = Buffer.alloc(12 * 1024 * 1024, 7);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const small = await solidImage(20, 20, "png");
    const cases = [
      {
        files: [{ bytes: big, name: "huge.jpg" }],
        status: 413,
        says: "A photo is at most 10 MB. Please choose a smaller one.",
      },
      {
        files: [{ bytes: Buffer.from("%PDF-1.7 not a photo"), name: "x.jpg" }],
        status: 400,
        says: "A photo must be a JPEG, PNG or WebP image.",
      },
      {
        files: Array.from({ length: 5 }, (_, i) => ({
          bytes: small,
          name: `p${i}.png`,
          type: "image/png",
        })),
        status: 400,
        says: "A message carries at most 4 photos.",
      },
    ];
    for (const c of cases) {
      const res = await creator.client.request("POST", `/bet/${bet.id}`, {
        body: messageForm("Kept & typed <here>", c.files),
        headers: html,
      });
      expect(res.status, c.says).toBe(c.status);
      expect(res.text).toContain(c.says);
      // The box holds what was typed.
      expect(res.text).toMatch(
        /<textarea[^>]*name="body"[^>]*>Kept &amp; typed &lt;here&gt;<\/textarea>/,
      );
    }
    const list = await creator.client.get(`/api/bets/${bet.id}/messages`);
    expect(list.data).toEqual([]);
  });

  it("the same form sent twice (a double tap) makes one message, whatever boundary each copy drew", async () => {
    const { bet, creator } = await activeBet();
    const jpeg = await solidImage(400, 300, "jpeg");
    const key = "photo-repeat-key-0123456789abcdef";
    const form = (text: string) => {
      const f = messageForm(text, [{ bytes: jpeg, name: "a.jpg" }]);
      f.set("idempotencyKey", key);
      return f;
    };
    const first = await creator.client.request("POST", `/bet/${bet.id}`, {
      body: form("Once only."),
      headers: html,
    });
    expect([302, 303]).toContain(first.status);
    const again = await creator.client.request("POST", `/bet/${bet.id}`, {
      body: form("Once only."),
      headers: html,
    });
    expect(again.status).toBe(first.status);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const list = await creator.client.get(`/api/bets/${bet.id}/messages`);
    expect(list.data).toHaveLength(1);
    expect(list.data[0].photos).toHaveLength(1);
  });

  it("a control character in a multipart field is 400, as in any form", async () => {
    const { bet, creator } = await activeBet();
    const res = await creator.client.request("POST", `/bet/${bet.id}`, {
      body: messageForm("nul \u0000 here", []),
      headers: html,
    });
    expect(res.status).toBe(400);
  });

  it("a multipart body past four photos is refused while it streams; the page's plain forms keep the form limit", async () => {
    const { bet, creator } = await activeBet();
    const cookie = creator.client.cookieHeader;
    const tooBig = await postStreamed(server.url, `/bet/${bet.id}`, {
      headers: {
        "Content-Type": "multipart/form-data; boundary=x",
        Cookie: cookie,
      },
      first:
        '--x\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n',
      declaredLength: 4 * 10 * 1024 * 1024 + 64 * 1024 + 1,
      sentLimit: 48 * 1024 * 1024,
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toContain(
      "Four photos of 10 MB at most. Please choose smaller ones.",
    );
    const plain = await postStreamed(server.url, `/bet/${bet.id}`, {
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: cookie,
      },
      first: "intent=message&body=",
      declaredLength: 65_536 + 1,
      sentLimit: 8 * 1024 * 1024,
    });
    expect(plain.status).toBe(413);
    expect(plain.body).toContain("This form is too large to send.");
  });
});
