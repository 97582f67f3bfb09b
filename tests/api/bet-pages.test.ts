// Share meta and image, and the HTML doors of the bet screens: what a
// crawler, a visitor and a signed-in person get, and that text renders escaped.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";

const server = useServer({ PUBLIC_ORIGIN: "https://fairshake.example" });

const withoutScripts = (html: string) =>
  html.replace(/<script[\s\S]*?<\/script>/g, "");

const future = () => new Date(Date.now() + 2 * 86_400_000).toISOString();
async function newBet(client: Client, over: Record<string, unknown> = {}) {
  const res = await client.post("/api/bets", {
    title: "Share this bet",
    description: "Somebody wins, somebody pays.",
    amount: 15,
    deadline: future(),
    visibility: "public",
    ...over,
  });
  expect(res.status, res.text).toBe(201);
  return res.data as { id: number; code: string };
}

describe("GET /api/bets/{id}/share-meta", () => {
  it("answers anyone with absolute URLs from PUBLIC_ORIGIN", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const res = await new Client(server.url).get(
      `/api/bets/${bet.id}/share-meta`,
    );
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      title: "Share this bet",
      description: "Somebody wins, somebody pays.",
      image: `https://fairshake.example/api/bets/${bet.id}/share-image`,
      url: `https://fairshake.example/share/${bet.id}`,
      code: bet.code,
    });
  });

  it("answers a private bet only with its ?code=, else 404 like a missing bet", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client, { visibility: "private" });
    const anon = new Client(server.url);
    expect((await anon.get(`/api/bets/${bet.id}/share-meta`)).status).toBe(404);
    expect(
      (await anon.get(`/api/bets/${bet.id}/share-meta?code=ZZZZZZ`)).status,
    ).toBe(404);
    const ok = await anon.get(
      `/api/bets/${bet.id}/share-meta?code=${bet.code}`,
    );
    expect(ok.status).toBe(200);
    expect(ok.data.url).toBe(
      `https://fairshake.example/share/${bet.id}?code=${bet.code}`,
    );
    expect((await anon.get("/api/bets/999999/share-meta")).status).toBe(404);
    expect((await anon.get("/api/bets/x1/share-meta")).status).toBe(404);
  });
});

describe("GET /api/bets/{id}/share-image", () => {
  it("is a 1200×630 PNG with an ETag; a repeat with If-None-Match is 304", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client, { title: "Émoji 🎲 <b>bold</b>" });
    const res = await fetch(`${server.url}/api/bets/${bet.id}/share-image`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const etag = res.headers.get("etag");
    expect(etag).toBeTruthy();
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
    // The bet page's own copy: the same card at 720×378, its own ETag.
    const small = await fetch(
      `${server.url}/api/bets/${bet.id}/share-image?w=720`,
    );
    expect(small.status).toBe(200);
    const smallPng = Buffer.from(await small.arrayBuffer());
    expect(smallPng.readUInt32BE(16)).toBe(720);
    expect(smallPng.readUInt32BE(20)).toBe(378);
    expect(smallPng.length).toBeLessThan(png.length);
    expect(small.headers.get("etag")).not.toBe(etag);
    // Only the one width the page asks for: any other `w` is the link
    // preview's 1200, so a caller cannot make the server draw a size it picks.
    for (const w of ["99999", "0", "-1", "720.5", "abc"]) {
      const other = await fetch(
        `${server.url}/api/bets/${bet.id}/share-image?w=${w}`,
      );
      expect(other.status, w).toBe(200);
      expect(other.headers.get("etag"), w).toBe(etag);
      const otherPng = Buffer.from(await other.arrayBuffer());
      expect(otherPng.readUInt32BE(16), w).toBe(1200);
    }
    const again = await fetch(`${server.url}/api/bets/${bet.id}/share-image`, {
      headers: { "If-None-Match": etag! },
    });
    expect(again.status).toBe(304);
    // An edit changes the version, so the old ETag no longer matches.
    await client.put(`/api/bets/${bet.id}`, {
      title: "A new title",
      description: "Somebody wins, somebody pays.",
      amount: 15,
      deadline: future(),
      visibility: "public",
    });
    const changed = await fetch(
      `${server.url}/api/bets/${bet.id}/share-image`,
      {
        headers: { "If-None-Match": etag! },
      },
    );
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("is kept by the browser when the bet page names its version, and checked again when it does not (0839)", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const pageImage = async () => {
      const page = await client.get(`/bet/${bet.id}`);
      expect(page.status).toBe(200);
      const src = /<img src="([^"]*share-image[^"]*)"/
        .exec(page.text)?.[1]
        ?.replace(/&amp;/g, "&");
      expect(src).toMatch(/[?&]w=720&v=[0-9a-z]+$/);
      return src!;
    };
    const first = await pageImage();
    const kept = await fetch(`${server.url}${first}`);
    expect(kept.status).toBe(200);
    expect(kept.headers.get("cache-control")).toBe(
      "private, max-age=31536000, immutable",
    );
    // Without a version (a crawler's og:image), it is checked on every use.
    const unversioned = await fetch(
      `${server.url}/api/bets/${bet.id}/share-image?w=720`,
    );
    expect(unversioned.headers.get("cache-control")).toBe(
      "public, max-age=0, must-revalidate",
    );
    // An edit gives the card a new version and the page a new URL; the old
    // URL still answers, with the current card, and not for keeping.
    const edited = await client.put(`/api/bets/${bet.id}`, {
      title: "A new title",
      description: "Somebody wins, somebody pays.",
      amount: 15,
      deadline: future(),
      visibility: "public",
    });
    expect(edited.status, edited.text).toBe(200);
    const second = await pageImage();
    expect(second).not.toBe(first);
    const stale = await fetch(`${server.url}${first}`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get("cache-control")).toBe(
      "public, max-age=0, must-revalidate",
    );
    expect(stale.headers.get("etag")).toBe(
      (await fetch(`${server.url}${second}`)).headers.get("etag"),
    );
  });

  it("is 404 for a private bet without its code", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client, { visibility: "private" });
    expect(
      (await fetch(`${server.url}/api/bets/${bet.id}/share-image`)).status,
    ).toBe(404);
    expect(
      (
        await fetch(
          `${server.url}/api/bets/${bet.id}/share-image?code=${bet.code}`,
        )
      ).status,
    ).toBe(200);
  });
});

describe("/share/{id}", () => {
  it("gives a crawler OG and Twitter tags, a 300 ms meta refresh to /auth, and no JavaScript", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client, { title: `Tag "quotes" & <tags>` });
    const res = await new Client(server.url).get(`/share/${bet.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      `<meta property="og:title" content="Tag &quot;quotes&quot; &amp; &lt;tags&gt;"/>`,
    );
    expect(res.text).toContain(
      `<meta property="og:image" content="https://fairshake.example/api/bets/${bet.id}/share-image"/>`,
    );
    expect(res.text).toContain(
      `<meta name="twitter:card" content="summary_large_image"/>`,
    );
    expect(res.text).toContain(
      `<meta http-equiv="refresh" content="0.3;url=/auth?return_to=%2Fshare%2F${bet.id}"/>`,
    );
    expect(res.text).not.toMatch(/<script/i);
  });

  it("sends a signed-in person on to /bet/{id}, and a private link's code grants access", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client, { visibility: "private" });
    const { client: friend } = await signUp(server.url);
    expect((await friend.get(`/api/bets/${bet.id}`)).status).toBe(404);
    const res = await friend.get(`/share/${bet.id}?code=${bet.code}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/bet/${bet.id}`);
    expect((await friend.get(`/api/bets/${bet.id}`)).status).toBe(200);
  });

  it("says 'Invalid bet ID' for a malformed id and 404 for a private bet without code", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client, { visibility: "private" });
    const bad = await new Client(server.url).get("/share/not-a-number");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Invalid bet ID");
    expect((await new Client(server.url).get(`/share/${bet.id}`)).status).toBe(
      404,
    );
  });
});

describe("bet pages", () => {
  it("render the bet's text escaped on /bet/{id}", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client, {
      title: `<script>alert("x")</script> 🎲`,
      description: `<img src=x onerror=alert(1)> 'single' "double"`,
    });
    const res = await client.get(`/bet/${bet.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; 🎲",
    );
    expect(res.text).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(res.text).not.toContain(`<script>alert("x")</script>`);
    expect(res.text).not.toContain("<img src=x onerror");
  });

  it("/bets/{id} redirects 301 to /bet/{id}; a missing bet is a 404 'Bet not found'", async () => {
    const { client } = await signUp(server.url);
    const moved = await client.get("/bets/42");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/bet/42");
    const missing = await client.get("/bet/999999");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain("Bet not found");
  });

  it("/join/{code} sends a visitor to /auth with return_to and ships no JavaScript", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const visitor = await new Client(server.url).get(`/join/${bet.code}`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(
      `/auth?return_to=${encodeURIComponent(`/join/${bet.code}`)}`,
    );
    const { client: other } = await signUp(server.url);
    const page = await other.get(`/join/${bet.code.toLowerCase()}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(bet.code);
    expect(page.text).toContain("Join This Bet");
    expect(page.text).not.toMatch(/<script/i);
    const missing = await other.get("/join/ZZZZZZ");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain(
      "No bet found with that code. Please check and try again.",
    );
  });

  it("offer the referee no Join, on /bet/{id} and /join/{code}, and the API refuses them (docs/product-rules.md#joining)", async () => {
    const creator = await signUp(server.url);
    const referee = await signUp(server.url);
    expect(
      (
        await creator.client.post("/api/friends", {
          friendId: referee.user.id,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await referee.client.post("/api/friends/accept", {
          friendId: creator.user.id,
        })
      ).status,
    ).toBe(200);
    const bet = await newBet(creator.client, { refereeId: referee.user.id });
    // A stranger is offered Join on both pages: the control.
    const { client: stranger } = await signUp(server.url);
    expect((await stranger.get(`/bet/${bet.id}`)).text).toContain(
      "Join Bet for",
    );
    expect((await stranger.get(`/join/${bet.code}`)).text).toContain(
      "Join This Bet",
    );
    const detail = await referee.client.get(`/bet/${bet.id}`);
    expect(detail.status).toBe(200);
    // What the page shows, not its scripts: the page's message catalog
    // travels in its data (docs/decisions/1110-messages-with-lingui-core.md).
    expect(withoutScripts(detail.text)).not.toContain("Join Bet for");
    expect(detail.text).not.toContain('value="join"');
    const byCode = await referee.client.get(`/join/${bet.code}`);
    expect(byCode.status).toBe(200);
    expect(byCode.text).not.toContain("Join This Bet");
    expect(byCode.text).toContain(
      "You are this bet&#x27;s referee, so you cannot join it.",
    );
    const api = await referee.client.post(`/api/bets/${bet.id}/join`, {});
    expect(api.status).toBe(409);
    expect(api.data.error).toBe("The referee cannot join this bet.");
    const posted = await referee.client.request("POST", `/bet/${bet.id}`, {
      body: new URLSearchParams({ intent: "join" }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(posted.status).toBe(409);
    expect(posted.text).toContain("The referee cannot join this bet.");
  });

  it("protected bet screens redirect a visitor to /auth (302)", async () => {
    const anon = new Client(server.url);
    for (const path of [
      "/create-bet",
      "/my-bets",
      "/search",
      "/bet/1",
      "/bet/1/edit",
      "/edit-bet/1",
    ]) {
      const res = await anon.get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location")).toBe(
        `/auth?return_to=${encodeURIComponent(path)}`,
      );
    }
  });
});

describe("no-JS form posts", () => {
  const form = (client: Client, path: string, fields: Record<string, string>) =>
    client.request("POST", path, {
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });

  it("create-bet: 'Authentication required' when the session has gone", async () => {
    const res = await form(new Client(server.url), "/create-bet", {
      title: "Anything",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth?return_to=%2Fcreate-bet");
    expect(res.headers.get("set-cookie")).toMatch(/fairshake_toast=/);
  });

  it("create-bet: 400 with the field messages, then 302 to /bet/{id} with the toast", async () => {
    const { client } = await signUp(server.url);
    const bad = await form(client, "/create-bet", {
      title: "x",
      description: "ok",
      amount: "10",
      visibility: "public",
      deadlineDate: "",
      timeZone: "UTC",
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Error creating bet");
    expect(bad.text).toContain("Title must be at least 2 characters.");
    expect(bad.text).toContain("Please select a date.");
    const date = new Date(Date.now() + 3 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const ok = await form(client, "/create-bet", {
      title: "Form bet",
      description: "Made by a plain form",
      amount: "12",
      visibility: "private",
      deadlineDate: date,
      deadlineTime: "09:15",
      includeTime: "on",
      timeZone: "Europe/Paris",
    });
    expect(ok.status).toBe(302);
    const id = /^\/bet\/(\d+)$/.exec(ok.headers.get("location") ?? "")?.[1];
    expect(id).toBeDefined();
    const bet = await client.get(`/api/bets/${id}`);
    expect(bet.data).toMatchObject({
      title: "Form bet",
      amount: 12,
      visibility: "private",
    });
    const paris = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Paris",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date(bet.data.deadline));
    expect(paris).toBe("09:15");
  });

  it("a stale join from /bet/{id} answers 409 with the message on the page", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const shown = (await client.get(`/api/bets/${bet.id}`)).data.updatedAt;
    await client.put(`/api/bets/${bet.id}`, {
      title: "Changed terms",
      description: "Somebody wins, somebody pays.",
      amount: 99,
      deadline: future(),
      visibility: "public",
    });
    const { client: other } = await signUp(server.url);
    const res = await form(other, `/bet/${bet.id}`, {
      intent: "join",
      version: shown,
    });
    expect(res.status).toBe(409);
    expect(res.text).toContain("Failed to join bet");
    expect(res.text).toContain(
      "This bet changed while you were looking. Please review it again.",
    );
    const fresh = (await other.get(`/api/bets/${bet.id}`)).data.updatedAt;
    const ok = await form(other, `/bet/${bet.id}`, {
      intent: "join",
      version: fresh,
    });
    expect(ok.status).toBe(302);
    const third = await signUp(server.url);
    const full = await form(third.client, `/bet/${bet.id}`, { intent: "join" });
    expect(full.status).toBe(409);
    expect(full.text).toContain(
      "Bet already has the maximum number of participants.",
    );
  });

  it("search by code: 400 empty, 400 wrong length, 404 unknown, 302 found", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const empty = await form(client, "/search", { code: "" });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain(
      "You need to enter a 6-character bet code to search",
    );
    const short = await form(client, "/search", { code: "abc" });
    expect(short.status).toBe(400);
    expect(short.text).toContain("Bet codes must be exactly 6 characters");
    const unknown = await form(client, "/search", { code: "ZZZZZZ" });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain(
      "No bet found with that code. Please check and try again.",
    );
    const found = await form(client, "/search", {
      code: bet.code.toLowerCase(),
    });
    expect(found.status).toBe(302);
    expect(found.headers.get("location")).toBe(`/bet/${bet.id}`);
  });

  it("edit and delete forms: others are refused, the creator deletes", async () => {
    const { client } = await signUp(server.url);
    const bet = await newBet(client);
    const { client: other } = await signUp(server.url);
    const page = await other.get(`/bet/${bet.id}/edit`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/my-bets");
    // docs/product-rules.md#roles: 'Access denied' sends them to /my-bets; the bet stays.
    const refused = await form(other, `/bet/${bet.id}/edit`, {
      intent: "delete",
    });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/my-bets");
    expect((await client.get(`/api/bets/${bet.id}`)).status).toBe(200);
    const deleted = await form(client, `/edit-bet/${bet.id}`, {
      intent: "delete",
    });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/my-bets");
    expect((await client.get(`/api/bets/${bet.id}`)).status).toBe(404);
  });
});

describe("the demo's bet 3 (docs/product-rules.md#bets)", () => {
  it("offers 'Demo Payment Process' on bet 3 only, in demo mode", async () => {
    const alice = new Client(server.url);
    const login = await alice.post("/api/login", {
      username: "alice",
      password: "password123",
    });
    expect(login.status, login.text).toBe(200);
    const three = await alice.get("/bet/3");
    expect(three.status).toBe(200);
    expect(three.text).toMatch(
      /<a[^>]*href="\/payment\/3"[^>]*>Demo Payment Process<\/a>/,
    );
    const other = await alice.get("/bet/1");
    expect(other.status).toBe(200);
    expect(withoutScripts(other.text)).not.toContain("Demo Payment Process");
  });
});
