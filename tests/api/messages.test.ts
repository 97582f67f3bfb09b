// Talk on a bet over HTTP (docs/api.md#messages, docs/product-rules.md#messages):
// who may read and write, the body's rules, deleting within the window
// (shortened here to 3 seconds), the limits, privacy whatever the bet's
// visibility, the others told, and closing an account.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { useServer, useSmtp } from "../support/use-server";
import { Client, uniqueName } from "../support/server";
import { linkIn } from "../support/smtp";
import { queryServerDatabase } from "../support/server-database";
import { joinBetAs, newBet, person, type Person } from "../support/world";
import { payOverHttp } from "./settle-helpers";

const smtp = useSmtp();
const server = useServer(() => ({
  MESSAGE_DELETE_WINDOW_S: "3",
  SMTP_URL: smtp.url,
  OUTBOX_POLL_MS: "200",
  OUTBOX_RETRY_BASE_MS: "300",
}));

const rowsOf = <T = Record<string, unknown>>(
  text: string,
  ...params: unknown[]
) => queryServerDatabase<T>(server.databaseEnv, text, params);

const messagesOf = (betId: number) => `/api/bets/${betId}/messages`;

async function befriend(a: Person, b: Person) {
  const ask = await a.client.post("/api/friends", { friendId: b.user.id });
  expect(ask.status, ask.text).toBe(201);
  const ok = await b.client.post("/api/friends/accept", {
    friendId: a.user.id,
  });
  expect(ok.status, ok.text).toBe(200);
}

/** An active bet between two people, with the creator's friend as referee. */
async function refereedBet(visibility: "public" | "private" = "private") {
  const creator = await person(server.url, "mc");
  const joiner = await person(server.url, "mj");
  const referee = await person(server.url, "mr");
  await befriend(creator, referee);
  const bet = await newBet(creator, { visibility, refereeId: referee.user.id });
  await joinBetAs(joiner, bet);
  return { bet, creator, joiner, referee };
}

async function activeBet(visibility: "public" | "private" = "public") {
  const creator = await person(server.url, "ac");
  const joiner = await person(server.url, "aj");
  const bet = await newBet(creator, { visibility });
  await joinBetAs(joiner, bet);
  return { bet, creator, joiner };
}

async function write(who: Person, betId: number, body: unknown) {
  return who.client.post(messagesOf(betId), { body });
}

describe("messages on a bet", () => {
  it("the two people and the referee write; everyone of them reads them oldest first with author and time", async () => {
    const { bet, creator, joiner, referee } = await refereedBet();
    const first = await write(creator, bet.id, "Did you see the score?");
    expect(first.status, first.text).toBe(201);
    expect(first.data).toEqual({
      id: expect.any(Number),
      authorId: creator.user.id,
      body: "Did you see the score?",
      photos: [],
      createdAt: expect.any(String),
      deleted: false,
    });
    expect((await write(joiner, bet.id, "Yes.\nWe won.")).status).toBe(201);
    expect((await write(referee, bet.id, "I'm watching.")).status).toBe(201);
    for (const who of [creator, joiner, referee]) {
      const list = await who.client.get(messagesOf(bet.id));
      expect(list.status).toBe(200);
      expect(
        list.data.map((m: { authorId: number; body: string }) => [
          m.authorId,
          m.body,
        ]),
      ).toEqual([
        [creator.user.id, "Did you see the score?"],
        [joiner.user.id, "Yes.\nWe won."],
        [referee.user.id, "I'm watching."],
      ]);
      const times = list.data.map((m: { createdAt: string }) =>
        Date.parse(m.createdAt),
      );
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
  });

  it("a body is 1 to 1,000 characters of text: empty, too long, not text or with control characters is 400", async () => {
    const { bet, creator } = await activeBet();
    for (const body of ["", "   \n ", undefined, 42, ["x"]]) {
      const res = await write(creator, bet.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.data.error).toBe("Write a message first.");
    }
    const long = await write(creator, bet.id, "x".repeat(1001));
    expect(long.status).toBe(400);
    expect(long.data.error).toBe("A message is at most 1,000 characters.");
    expect((await write(creator, bet.id, "bell\u0007")).status).toBe(400);
    expect((await write(creator, bet.id, "é".repeat(1000))).status).toBe(201);
    const list = await creator.client.get(messagesOf(bet.id));
    expect(list.data).toHaveLength(1);
  });

  it("a stranger gets 403 on a public bet and 404 on a private one; opening a private bet by code is still 403; anonymous 401", async () => {
    const pub = await activeBet("public");
    const priv = await activeBet("private");
    expect((await write(pub.creator, pub.bet.id, "Secret plan")).status).toBe(
      201,
    );
    const [message] = (await pub.creator.client.get(messagesOf(pub.bet.id)))
      .data;
    const stranger = await person(server.url, "ms");
    expect((await stranger.client.get(messagesOf(pub.bet.id))).status).toBe(
      403,
    );
    expect((await write(stranger, pub.bet.id, "hi")).status).toBe(403);
    expect(
      (await stranger.client.delete(`${messagesOf(pub.bet.id)}/${message.id}`))
        .status,
    ).toBe(403);
    expect((await stranger.client.get(messagesOf(priv.bet.id))).status).toBe(
      404,
    );
    expect((await write(stranger, priv.bet.id, "hi")).status).toBe(404);
    expect(
      (await stranger.client.get(`/api/bets/code/${priv.bet.code}`)).status,
    ).toBe(200);
    expect((await stranger.client.get(messagesOf(priv.bet.id))).status).toBe(
      403,
    );
    expect((await stranger.client.get(messagesOf(999_999))).status).toBe(404);
    const anonymous = new Client(server.url);
    expect((await anonymous.get(messagesOf(pub.bet.id))).status).toBe(401);
    expect(
      (await anonymous.post(messagesOf(pub.bet.id), { body: "hi" })).status,
    ).toBe(401);
  });

  it("an author deletes their own within the window: 204, 'deleted' in its place; someone else's 403; unknown 404; after the window 409", async () => {
    const { bet, creator, joiner } = await activeBet();
    const mine = (await write(creator, bet.id, "Oops, wrong bet")).data;
    const theirs = (await write(joiner, bet.id, "Ha")).data;
    const late = (await write(creator, bet.id, "This one stays")).data;
    const path = (id: number | string) => `${messagesOf(bet.id)}/${id}`;
    expect((await creator.client.delete(path(theirs.id))).status).toBe(403);
    expect((await creator.client.delete(path(987_654))).status).toBe(404);
    expect((await creator.client.delete(path("x"))).status).toBe(404);
    expect((await creator.client.delete(path(mine.id))).status).toBe(204);
    // Again: nothing left to delete, the same answer.
    expect((await creator.client.delete(path(mine.id))).status).toBe(204);
    const list = (await joiner.client.get(messagesOf(bet.id))).data;
    expect(list[0]).toMatchObject({
      id: mine.id,
      authorId: creator.user.id,
      body: null,
      deleted: true,
    });
    const [stored] = await rowsOf<{ body: string }>(
      "SELECT body FROM bet_messages WHERE id = ?",
      mine.id,
    );
    expect(stored?.body).toBe("");
    // A message of another bet is not found through this one.
    const other = await activeBet();
    const elsewhere = (await write(other.creator, other.bet.id, "hi")).data;
    expect((await creator.client.delete(path(elsewhere.id))).status).toBe(404);
    // The window is 3 seconds here (10 minutes in production).
    const wait = Date.parse(late.createdAt) + 3_100 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const over = await creator.client.delete(path(late.id));
    expect(over.status).toBe(409);
    expect(over.data.error).toBe(
      "A message can be deleted only within 10 minutes of sending it.",
    );
  });

  it("at most 20 a person a minute (429 with Retry-After) and 500 a bet (409)", async () => {
    const { bet, creator, joiner } = await activeBet();
    const sends = await Promise.all(
      Array.from({ length: 21 }, (_, i) => write(creator, bet.id, `n${i}`)),
    );
    const statuses = sends.map((s) => s.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    const refused = sends.find((s) => s.status === 429)!;
    expect(refused).toBeDefined();
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await write(creator, bet.id, "one more")).status).toBe(429);
    // The other person's minute is their own.
    expect((await write(joiner, bet.id, "me too")).status).toBe(201);

    // 500 a bet: fill it to 499 in the database, then one more fits.
    const full = await activeBet();
    await rowsOf(
      server.databaseEnv.DATABASE_URL
        ? "INSERT INTO bet_messages (bet_id, author_id, body, created_at) SELECT ?, ?, 'old', 0 FROM generate_series(1, 499)"
        : "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 499) INSERT INTO bet_messages (bet_id, author_id, body, created_at) SELECT ?, ?, 'old', 0 FROM n",
      full.bet.id,
      full.joiner.user.id,
    );
    expect((await write(full.creator, full.bet.id, "the 500th")).status).toBe(
      201,
    );
    const over = await write(full.creator, full.bet.id, "the 501st");
    expect(over.status).toBe(409);
    expect(over.data.error).toBe("This bet has reached its 500 messages.");
    expect(
      (await full.creator.client.get(messagesOf(full.bet.id))).data,
    ).toHaveLength(500);
  });

  it("never on the share page, the preview, the bet's JSON or the public feed", async () => {
    const pending = await person(server.url, "mp");
    const bet = await newBet(pending, { visibility: "public" });
    const secret = `Psst ${Math.random().toString(36).slice(2)}`;
    expect((await write(pending, bet.id, secret)).status).toBe(201);
    const visitor = await person(server.url, "mv");
    const anonymous = new Client(server.url);
    const looks = [
      await anonymous.get(`/share/${bet.id}`, { Accept: "text/html" }),
      await anonymous.get(`/api/bets/${bet.id}/share-meta`),
      await anonymous.get("/api/bets"),
      await visitor.client.get("/api/bets"),
      await visitor.client.get(`/api/bets/${bet.id}`),
      await visitor.client.get(`/bet/${bet.id}`, { Accept: "text/html" }),
      await pending.client.get(`/api/bets/${bet.id}`),
    ];
    for (const res of looks) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(secret);
    }
    expect(looks[2]!.text).toContain(bet.title);
    // The author's own bet page shows it.
    const own = await pending.client.get(`/bet/${bet.id}`, {
      Accept: "text/html",
    });
    expect(own.text).toContain(secret);
  });

  it("the others on the bet are told at once (activity), the author is not", async () => {
    const { bet, creator, joiner, referee } = await refereedBet("public");
    expect((await write(joiner, bet.id, "Good game")).status).toBe(201);
    for (const who of [creator, referee]) {
      const activity = (await who.client.get("/api/activity")).data as {
        type: string;
        betId: number;
        message: string;
      }[];
      const told = activity.filter((e) => e.type === "bet_message");
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ betId: bet.id });
      expect(told[0]!.message).toContain(joiner.user.username);
      expect(told[0]!.message).not.toContain("Good game");
    }
    const own = (await joiner.client.get("/api/activity")).data as {
      type: string;
    }[];
    expect(own.filter((e) => e.type === "bet_message")).toHaveLength(0);
  });

  it("closing an account leaves 'deleted' in its messages' places; the export has the person's own", async () => {
    const creator = await person(server.url, "mk");
    const joiner = await person(server.url, "ml");
    const bet = await newBet(creator, { visibility: "public" });
    await joinBetAs(joiner, bet);
    const settle = await creator.client.post(`/api/bets/${bet.id}/settle`, {
      winnerId: joiner.user.id,
    });
    expect(settle.status, settle.text).toBe(200);
    await payOverHttp(creator.client, bet.id);
    expect((await write(creator, bet.id, "Paid, well played")).status).toBe(
      201,
    );
    expect((await write(joiner, bet.id, "Thanks!")).status).toBe(201);
    const exported = await creator.client.get("/api/user/export");
    expect(exported.status).toBe(200);
    expect(exported.data.messages).toEqual([
      {
        betId: bet.id,
        body: "Paid, well played",
        deleted: false,
        createdAt: expect.any(String),
        photos: [],
      },
    ]);
    const closed = await creator.client.request("DELETE", "/api/user", {
      json: { password: "secret123" },
    });
    expect(closed.status, closed.text).toBe(204);
    const list = (await joiner.client.get(messagesOf(bet.id))).data;
    expect(list.map((m: { body: string | null }) => m.body)).toEqual([
      null,
      "Thanks!",
    ]);
    expect(list[0].deleted).toBe(true);
    const stored = await rowsOf<{ body: string }>(
      "SELECT body FROM bet_messages WHERE author_id = ?",
      creator.user.id,
    );
    expect(stored).toEqual([{ body: "" }]);
  });

  it("mail about a bet's messages: at most one per bet per 10 minutes, linking the bet", async () => {
    const alice = await verifiedPerson("va");
    const bob = await verifiedPerson("vb");
    const bet = await newBet(alice, { visibility: "private" });
    await joinBetAs(bob, bet);
    for (const body of ["First", "Second", "Third"])
      expect((await write(bob, bet.id, body)).status).toBe(201);
    const mail = await smtp.waitFor(
      (m) =>
        m.to === alice.user.email && m.subject === "A new message on a bet",
    );
    expect(linkIn(mail, "/bet/")).toBe(`/bet/${bet.id}`);
    expect(mail.text).not.toContain("First");
    // Every delivery of the three is done: one sent, two held back.
    const settled = async () => {
      const end = Date.now() + 15_000;
      for (;;) {
        const rows = await rowsOf<{
          status: string;
          last_error: string | null;
        }>(
          "SELECT d.status, d.last_error FROM notification_deliveries d JOIN activity_events e ON e.id = d.event_id WHERE e.user_id = ? AND e.type = 'bet_message' AND d.channel = 'email'",
          alice.user.id,
        );
        if (
          (rows.length === 3 &&
            rows.every(
              (r) => r.status !== "pending" && r.status !== "sending",
            )) ||
          Date.now() > end
        )
          return rows;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const rows = await settled();
    expect(rows.map((r) => r.status).sort()).toEqual([
      "sent",
      "skipped",
      "skipped",
    ]);
    expect(
      rows.filter((r) => r.status === "skipped").map((r) => r.last_error),
    ).toEqual([
      "one mail per bet per 10 minutes",
      "one mail per bet per 10 minutes",
    ]);
    expect(
      smtp.mails.filter(
        (m) =>
          m.to === alice.user.email && m.subject === "A new message on a bet",
      ),
    ).toHaveLength(1);
    // The author hears nothing of their own.
    expect(
      smtp.mails.filter(
        (m) =>
          m.to === bob.user.email && m.subject === "A new message on a bet",
      ),
    ).toHaveLength(0);
  });
});

/** Registers over the API and confirms the address with the mailed link. */
async function verifiedPerson(prefix: string): Promise<Person> {
  const name = uniqueName(prefix);
  const email = `${name}@example.com`;
  const client = new Client(server.url);
  const reg = await client.post("/api/register", {
    username: name,
    email,
    password: "secret123",
  });
  expect(reg.status, reg.text).toBe(201);
  const mail = await smtp.waitFor(
    (m) => m.to === email && m.subject === "Confirm your email address",
  );
  const token = new URL(
    linkIn(mail, "/verify-email"),
    server.url,
  ).searchParams.get("token");
  const verified = await client.post("/api/verify-email", { token });
  expect(verified.status, verified.text).toBe(200);
  return { client, user: { ...reg.data, email } };
}

/** A camera's JPEG: EXIF with GPS coordinates, the camera and its serial, and XMP. */
async function cameraJpeg() {
  return sharp({
    create: { width: 2400, height: 1800, channels: 3, background: "#336699" },
  })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: {
        Make: "FairCam",
        Model: "Evidence X1",
        DateTime: "2026:11:28 12:00:00",
      },
      IFD2: { BodySerialNumber: "SN-4711-SECRET" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 1234/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 3900/100",
      },
    })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>XMP-SECRET-AUTHOR</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>',
    )
    .toBuffer();
}

function multipart(
  body: string,
  files: { bytes: Uint8Array; name: string; type?: string }[],
) {
  const form = new FormData();
  form.set("body", body);
  for (const f of files)
    form.append(
      "photo",
      new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "image/jpeg" }),
      f.name,
    );
  return form;
}

const leaks = (bytes: Buffer) =>
  ["SN-4711-SECRET", "XMP-SECRET-AUTHOR", "FairCam", "xmpmeta", "Exif"].filter(
    (s) => bytes.includes(s),
  );

describe("photos as evidence", () => {
  it("a camera JPEG is stored and served re-encoded, 1,600 px at most, with no EXIF, GPS, camera or XMP; only to the bet's people", async () => {
    const { bet, creator, joiner } = await activeBet();
    const jpeg = await cameraJpeg();
    // The upload does carry all of it.
    const before = await sharp(jpeg).metadata();
    expect(before.exif).toBeDefined();
    expect(before.xmp).toBeDefined();
    expect(leaks(jpeg).length).toBeGreaterThan(0);

    const res = await creator.client.request("POST", messagesOf(bet.id), {
      body: multipart("The photo finish", [
        { bytes: jpeg, name: "finish.jpg" },
      ]),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.data.photos).toEqual([
      {
        id: expect.any(Number),
        url: expect.stringMatching(
          /^\/api\/bets\/\d+\/messages\/\d+\/photos\/\d+$/,
        ),
        thumbnailUrl: expect.stringMatching(/\?size=thumb$/),
        width: 1600,
        height: 1200,
      },
    ]);
    const photo = res.data.photos[0];

    const [stored] = await rowsOf<{ data: Buffer; thumb: Buffer }>(
      "SELECT data, thumb FROM bet_message_photos WHERE id = ?",
      photo.id,
    );
    for (const bytes of [
      Buffer.from(stored!.data),
      Buffer.from(stored!.thumb),
    ]) {
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(leaks(bytes)).toEqual([]);
    }

    const served = await fetch(server.url + photo.url, {
      headers: { Cookie: joiner.client.cookieHeader },
    });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/webp");
    expect(served.headers.get("Cache-Control")).toMatch(/^private/);
    const servedBytes = Buffer.from(await served.arrayBuffer());
    expect(leaks(servedBytes)).toEqual([]);
    const servedMeta = await sharp(servedBytes).metadata();
    expect([servedMeta.width, servedMeta.height]).toEqual([1600, 1200]);
    expect(servedMeta.exif).toBeUndefined();
    expect(servedMeta.xmp).toBeUndefined();
    const thumb = await fetch(server.url + photo.thumbnailUrl, {
      headers: { Cookie: joiner.client.cookieHeader },
    });
    expect(thumb.status).toBe(200);
    const thumbMeta = await sharp(
      Buffer.from(await thumb.arrayBuffer()),
    ).metadata();
    expect(Math.max(thumbMeta.width!, thumbMeta.height!)).toBeLessThanOrEqual(
      320,
    );

    // Anyone else: 404, a public bet's visitor included.
    const stranger = await person(server.url, "ps");
    for (const who of [stranger]) {
      const r = await fetch(server.url + photo.url, {
        headers: { Cookie: who.client.cookieHeader },
      });
      expect(r.status).toBe(404);
    }
    expect((await fetch(server.url + photo.url)).status).toBe(401);
    // Listed with the message.
    const list = (await joiner.client.get(messagesOf(bet.id))).data;
    expect(list[0].photos).toEqual(res.data.photos);
    // Deleting the message deletes its photos.
    expect(
      (await creator.client.delete(`${messagesOf(bet.id)}/${res.data.id}`))
        .status,
    ).toBe(204);
    const gone = await fetch(server.url + photo.url, {
      headers: { Cookie: joiner.client.cookieHeader },
    });
    expect(gone.status).toBe(404);
  });

  it("refuses a file named .jpg that is not an image, a 12 MB photo and a fifth photo, with a message", async () => {
    const { bet, creator } = await activeBet();
    const post = (form: FormData) =>
      creator.client.request("POST", messagesOf(bet.id), { body: form });
    const notImage = await post(
      multipart("See attached", [
        {
          bytes: Buffer.from("%PDF-1.7 not a photo at all"),
          name: "proof.jpg",
        },
      ]),
    );
    expect(notImage.status).toBe(400);
    expect(notImage.data.error).toBe(
      "A photo must be a JPEG, PNG or WebP image.",
    );

    const big = Buffer.alloc(12 * 1024 * 1024, 7);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const tooLarge = await post(
      multipart("Huge", [{ bytes: big, name: "huge.jpg" }]),
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.data.error).toBe(
      "A photo is at most 10 MB. Please choose a smaller one.",
    );

    const small = await sharp({
      create: { width: 20, height: 20, channels: 3, background: "#000" },
    })
      .png()
      .toBuffer();
    const five = await post(
      multipart(
        "Five",
        Array.from({ length: 5 }, (_, i) => ({
          bytes: small,
          name: `p${i}.png`,
          type: "image/png",
        })),
      ),
    );
    expect(five.status).toBe(400);
    expect(five.data.error).toBe("A message carries at most 4 photos.");
    // Nothing was written by any of them.
    expect((await creator.client.get(messagesOf(bet.id))).data).toEqual([]);
  });
});
