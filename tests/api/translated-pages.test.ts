// English left on a page in another language (docs/product-rules.md#languages):
// each translated page is rendered in English and in es, de and pt-BR, and
// any text (or aria-label, placeholder, title, alt) that reads the same in
// both is English nobody translated, unless it is a name on the allow-list
// or the test's own data. TRANSLATED_PAGES grows as pages are translated;
// docs/product-rules.md#languages lists those still in English.
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";
import { payOverHttp } from "./settle-helpers";
import { CURRENCIES } from "~/domain/currency";
import { LANGUAGE_NAMES } from "~/domain/language";
import { CATALOGS } from "~/framework/catalogs.server";

const server = useServer();

type Context = {
  betId: number;
  code: string;
  activeId: number;
  lostId: number;
  proposedId: number;
  /** A bet the creator referees, referred to them. */
  refereedId: number;
  /** Part of the friend's name: a friend search that finds them. */
  friendQuery: string;
};

/**
 * The pages whose every word is translated, signed in as the bet's creator,
 * or `signedOut` for the pages of someone not signed in (their language
 * comes from the picker's cookie, as a browser's Accept-Language would).
 */
export const TRANSLATED_PAGES: {
  name: string;
  path: (c: Context) => string;
  /** The page's status when not 200 (the not-found page). */
  status?: number;
  /** Seen by a visitor who is not signed in (the auth pages). */
  signedOut?: true;
}[] = [
  { name: "home", path: () => "/" },
  { name: "create bet", path: () => "/create-bet" },
  { name: "bet page (pending, its creator)", path: (c) => `/bet/${c.betId}` },
  { name: "join (the creator's view)", path: (c) => `/join/${c.code}` },
  { name: "settle bet", path: (c) => `/settle-bet/${c.activeId}` },
  {
    name: "propose a settlement",
    path: (c) => `/propose-settlement/${c.activeId}`,
  },
  { name: "my bets", path: () => "/my-bets" },
  { name: "my bets, an empty tab", path: () => "/my-bets?tab=joined" },
  { name: "payment (the loser's)", path: (c) => `/payment/${c.lostId}` },
  {
    name: "bet page (a live proposal, its creator)",
    path: (c) => `/bet/${c.proposedId}`,
  },
  { name: "bet page (conceded, the loser)", path: (c) => `/bet/${c.lostId}` },
  {
    name: "reject a settlement",
    path: (c) => `/settlements/${c.proposedId}/reject`,
  },
  {
    name: "approve a settlement",
    path: (c) => `/settlements/${c.proposedId}/approve`,
  },
  { name: "discover", path: () => "/search" },
  { name: "discover, friends", path: () => "/search?tab=friends" },
  {
    name: "discover, friend requests",
    path: () => "/search?tab=friends&sub=requests",
  },
  { name: "friends", path: () => "/friends" },
  { name: "friends, requests", path: () => "/friends?tab=requests" },
  {
    name: "friends, a search",
    path: (c) => `/friends?tab=add&q=${c.friendQuery}`,
  },
  {
    name: "friends, a search that finds nobody",
    path: () => "/friends?tab=add&q=zzqq",
  },
  { name: "activity", path: () => "/notifications" },
  { name: "activity, finances", path: () => "/notifications?tab=finances" },
  { name: "financial history", path: () => "/financial-history" },
  { name: "profile", path: () => "/profile" },
  { name: "edit profile", path: () => "/profile/edit" },
  { name: "notification settings", path: () => "/profile/notifications" },
  { name: "your data", path: () => "/profile/data" },
  { name: "security", path: () => "/profile/security" },
  { name: "help", path: () => "/help" },
  { name: "fees help", path: () => "/help/fees" },
  { name: "fee calculator", path: () => "/help/fees?tab=calculator" },
  {
    name: "fee calculator, in yen",
    path: () => "/help/fees?tab=calculator&amount=1001&currency=JPY",
  },
  {
    name: "fee calculator, an amount refused",
    path: () => "/help/fees?tab=calculator&amount=1.5.0",
  },
  { name: "fees FAQ", path: () => "/help/fees?tab=faq" },
  { name: "edit bet", path: (c) => `/bet/${c.betId}/edit` },
  {
    name: "edit bet, deleting",
    path: (c) => `/bet/${c.betId}/edit?confirm=delete`,
  },
  { name: "the referee's ruling", path: (c) => `/bet/${c.refereedId}/rule` },
  { name: "checkout (the loser's)", path: (c) => `/checkout/${c.lostId}` },
  { name: "not found", path: () => "/no-such-page", status: 404 },
  { name: "sign in", path: () => "/auth", signedOut: true },
  { name: "register", path: () => "/auth?tab=register", signedOut: true },
  { name: "forgot password", path: () => "/forgot-password", signedOut: true },
  {
    name: "forgot password, link sent",
    path: () => "/forgot-password?sent=1",
    signedOut: true,
  },
  {
    name: "reset password, a dead link",
    path: () => "/reset-password?token=not-a-live-token",
    signedOut: true,
  },
  {
    name: "confirm email, no link",
    path: () => "/verify-email",
    signedOut: true,
  },
  {
    name: "confirm email, a link",
    path: () => "/verify-email?token=some-token",
    signedOut: true,
  },
  {
    name: "confirm email, signed in",
    path: () => "/verify-email",
  },
];

/** Names, not words: the same in every language. */
const ALLOWED = new Set<string>([
  "Fairshake",
  "Stripe",
  "Facebook",
  "WhatsApp",
  "Instagram",
  "Apple Pay",
  "Google Pay",
  "PayPal",
  "Venmo",
  "Zelle",
  "Google Wallet",
  "Node.js", // a browser's name, on the security page's devices
  "https://", // the picture link's placeholder
  "support@fairshake.app",
  "UTC",
  ...Object.values(LANGUAGE_NAMES),
  ...CURRENCIES,
]);
const ALLOWED_PATTERNS = [
  /^[A-Z][a-z]+\/[A-Za-z_ ]+$/, // a time zone: Europe/Berlin
  /^\P{L}*$/u, // no letters: numbers, money, punctuation
  /^[A-Z]{1,2}$/, // a person's initials on their avatar
  /^[A-Z0-9]{6}$/, // a bet code (the code search's example)
];

const decode = (text: string) =>
  text
    .replace(/&#x27;|&apos;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;|&#160;/g, " ")
    .replace(/&amp;/g, "&");

/** What a person reads on the page: text nodes, the title and labelling attributes. */
export function wordsOn(html: string): Set<string> {
  const body = html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<style[\s\S]*?<\/style>/g, "")
    .replace(/<!--[\s\S]*?-->/g, "");
  const words = new Set<string>();
  const add = (raw: string) => {
    const text = decode(raw).replace(/\s+/g, " ").trim();
    if (text) words.add(text);
  };
  for (const [, text] of body.matchAll(/>([^<]+)</g)) add(text!);
  for (const [, , value] of body.matchAll(
    /\s(aria-label|placeholder|title|alt)="([^"]*)"/g,
  ))
    add(value!);
  return words;
}

const pick = (client: Client, language: string) =>
  client.request("POST", "/language", {
    body: new URLSearchParams({ language, returnTo: "/" }).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "text/html",
    },
  });

describe("translated pages have no English left", () => {
  let client: Client;
  /** Someone not signed in, for the sign-in and password pages. */
  let visitor: Client;
  let ctx: Context;
  let own: string[];
  let friendName = "";
  let otherCode = "";
  let lostCode = "";
  let proposedCode = "";
  beforeAll(async () => {
    visitor = new Client(server.url);
    const signed = await signUp(server.url);
    client = signed.client;
    const made = await client.post("/api/bets", {
      title: "Zyxw qvut",
      description: "Zyxw qvut ponm lkji.",
      amount: 25,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
    });
    expect(made.status, made.text).toBe(201);
    // A second bet someone joined: the settle screens.
    const other = await client.post("/api/bets", {
      title: "Zyxw qvut",
      description: "Zyxw qvut ponm lkji.",
      amount: 25,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
    });
    const { client: friend, user: joiner } = await signUp(server.url);
    const joined = await friend.post(`/api/bets/${other.data.id}/join`);
    expect(joined.status, joined.text).toBe(200);
    friendName = joiner.username;
    // A third, which the creator concedes: their payment screen.
    const lost = await client.post("/api/bets", {
      title: "Zyxw qvut",
      description: "Zyxw qvut ponm lkji.",
      amount: 25,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
    });
    expect((await friend.post(`/api/bets/${lost.data.id}/join`)).status).toBe(
      200,
    );
    const conceded = await client.post(`/api/bets/${lost.data.id}/settle`, {
      winnerId: joiner.id,
    });
    expect(conceded.status, conceded.text).toBe(200);
    lostCode = lost.data.code;
    // A fourth, where the friend proposes themself: the approve screen.
    const proposed = await client.post("/api/bets", {
      title: "Zyxw qvut",
      description: "Zyxw qvut ponm lkji.",
      amount: 25,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
    });
    const id = proposed.data.id;
    expect((await friend.post(`/api/bets/${id}/join`)).status).toBe(200);
    const proposal = await friend.post(`/api/bets/${id}/propose-settlement`, {
      winnerId: joiner.id,
    });
    expect(proposal.status, proposal.text).toBe(201);
    proposedCode = proposed.data.code;
    // A fifth, conceded and paid: a payment in the financial history.
    const paid = await client.post("/api/bets", {
      title: "Zyxw qvut",
      description: "Zyxw qvut ponm lkji.",
      amount: 25,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
    });
    expect((await friend.post(`/api/bets/${paid.data.id}/join`)).status).toBe(
      200,
    );
    await client.post(`/api/bets/${paid.data.id}/settle`, {
      winnerId: joiner.id,
    });
    await payOverHttp(client, paid.data.id);
    // The friend becomes a friend and makes a bet the creator referees;
    // a third person joins, rejects the friend's proposal and refers it.
    expect(
      (await friend.post("/api/friends", { friendId: signed.user.id })).status,
    ).toBe(201);
    expect(
      (await client.post("/api/friends/accept", { friendId: joiner.id }))
        .status,
    ).toBe(200);
    const refereed = await friend.post("/api/bets", {
      title: "Zyxw qvut",
      description: "Zyxw qvut ponm lkji.",
      amount: 25,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
      refereeId: signed.user.id,
    });
    expect(refereed.status, refereed.text).toBe(201);
    const third = await signUp(server.url);
    const refereedId = refereed.data.id as number;
    expect(
      (await third.client.post(`/api/bets/${refereedId}/join`)).status,
    ).toBe(200);
    await friend.post(`/api/bets/${refereedId}/propose-settlement`, {
      winnerId: joiner.id,
    });
    expect(
      (await third.client.post(`/api/settlements/${refereedId}/reject`, {}))
        .status,
    ).toBe(204);
    const referred = await third.client.post(`/api/bets/${refereedId}/refer`);
    expect(referred.status, referred.text).toBe(200);
    // Someone else asks to be the creator's friend: a pending request.
    const asker = await signUp(server.url);
    expect(
      (await asker.client.post("/api/friends", { friendId: signed.user.id }))
        .status,
    ).toBe(201);
    otherCode = other.data.code;
    ctx = {
      betId: made.data.id,
      code: made.data.code,
      activeId: other.data.id,
      lostId: lost.data.id,
      proposedId: proposed.data.id,
      refereedId,
      friendQuery: friendName,
    };
    // The public feed (Discover) shows everyone's bets, the demo's too:
    // their titles and codes are people's words, not the page's.
    const feed = await client.get("/api/bets");
    expect(feed.status).toBe(200);
    const others = (
      feed.data as { title: string; description: string; code: string }[]
    ).flatMap((b) => [b.title, b.description, b.code]);
    own = [
      ...others,
      signed.user.username,
      friendName,
      otherCode,
      lostCode,
      proposedCode,
      paid.data.code,
      refereed.data.code,
      third.user.username,
      asker.user.username,
      made.data.code,
      "Zyxw qvut",
      "Zyxw qvut ponm lkji.",
    ];
  });

  const render = async (
    language: string,
    path: string,
    who = client,
    status = 200,
  ) => {
    expect((await pick(who, language)).status).toBe(302);
    const res = await who.get(path, { Accept: "text/html" });
    expect(res.status, `${path} in ${language}`).toBe(status);
    expect(res.text).toContain(`<html lang="${language}"`);
    const words = wordsOn(res.text);
    // A key shown as itself: its area missing from the page's messages.
    const keys = [...words].filter((w) => w in CATALOGS.en);
    expect(keys, `message keys shown on ${path}`).toEqual([]);
    return words;
  };

  it("the activity feed says each event in the reader's language", async () => {
    expect((await pick(client, "de")).status).toBe(302);
    const de = await client.get("/notifications", { Accept: "text/html" });
    expect(de.text).toContain(
      `${friendName} ist deiner Wette „Zyxw qvut“ beigetreten`,
    );
    expect((await pick(client, "en")).status).toBe(302);
    const en = await client.get("/notifications", { Accept: "text/html" });
    expect(wordsOn(en.text)).toContain(
      `${friendName} joined your bet "Zyxw qvut"`,
    );
  });

  it("the site's description is in the page's language, which the answer names", async () => {
    const description = async (language: string) => {
      expect((await pick(client, language)).status).toBe(302);
      const res = await client.get("/no-such-page", { Accept: "text/html" });
      expect(res.status).toBe(404);
      // And the answer names it, for the service worker's offline page.
      expect(res.headers.get("X-Fairshake-Language")).toBe(language);
      return /<meta name="description" content="([^"]*)"/.exec(res.text)?.[1];
    };
    expect(await description("de")).toBe(
      "Wette mit Freunden, nicht mit Buchmachern.",
    );
    for (const language of ["en", "es", "pt-BR"] as const)
      expect(await description(language)).toBe(
        CATALOGS[language]["site.description"],
      );
  });

  it("a page names a file of its own areas' messages, and carries none itself", async () => {
    expect((await pick(client, "de")).status).toBe(302);
    const myBets = await client.get("/my-bets", { Accept: "text/html" });
    // A key in the page's data: a quoted string, escaped inside its script.
    const keysIn = (text: string, area: string) =>
      Object.keys(CATALOGS.en).filter(
        (k) => k.startsWith(`${area}.`) && new RegExp(`"${k}\\\\?"`).test(text),
      ).length;
    expect(keysIn(myBets.text, "myBets")).toBe(0);
    expect(keysIn(myBets.text, "nav")).toBe(0);
    const href = /<meta name="page-messages" content="([^"]+)"/.exec(
      myBets.text,
    )?.[1];
    expect(href).toMatch(/^\/messages\/de\/[a-zA-Z.-]+\.[\w-]{12}\.json$/);
    const file = await client.get(href!);
    expect(file.status).toBe(200);
    expect(file.headers.get("cache-control")).toBe(
      "public, max-age=31536000, immutable",
    );
    const areasOf = (messages: object) =>
      new Set(Object.keys(messages).map((k) => k.slice(0, k.indexOf("."))));
    expect(areasOf(file.data)).toContain("myBets");
    expect(areasOf(file.data)).toContain("nav");
    expect(areasOf(file.data)).not.toContain("approve");
    expect(areasOf(file.data)).not.toContain("create");
    // German words (compiled: a list of parts).
    expect(file.data["nav.myBets"]).toEqual(["Meine Wetten"]);
    // A client navigation to the bet page names the bet page's file.
    const data = await client.get(`/bet/${ctx.betId}.data`);
    expect(keysIn(data.text, "bet")).toBe(0);
    const next = /\/messages\/de\/[a-zA-Z.-]+\.[\w-]{12}\.json/.exec(
      data.text,
    )?.[0];
    expect(next).toBeDefined();
    const bet = await client.get(next!);
    expect(areasOf(bet.data)).toContain("bet");
    expect(areasOf(bet.data)).not.toContain("myBets");
  });

  it("a messages file by another name: unknown is 404, another build's hash gets these words, not kept", async () => {
    for (const wrong of [
      "/messages/xx/bet.aaaaaaaaaaaa.json",
      "/messages/de/nothing.aaaaaaaaaaaa.json",
      "/messages/de/bet.short.json",
      "/messages/de/bet.aaaaaaaaaaaa.txt",
    ]) {
      const res = await visitor.get(wrong);
      expect(res.status, wrong).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const other = await visitor.get("/messages/de/bet.aaaaaaaaaaaa.json");
    expect(other.status).toBe(200);
    expect(other.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(other.data).every((k) => k.startsWith("bet."))).toBe(
      true,
    );
  });

  for (const page of TRANSLATED_PAGES)
    it.each(["es", "de", "pt-BR"])(`${page.name} in %s`, async (language) => {
      const path = page.path(ctx);
      const who = page.signedOut ? visitor : client;
      const english = await render("en", path, who, page.status);
      const translated = await render(language, path, who, page.status);
      const left = [...translated].filter(
        (text) =>
          english.has(text) &&
          !ALLOWED.has(text) &&
          !own.some((o) => text.includes(o)) &&
          !ALLOWED_PATTERNS.some((p) => p.test(text)),
      );
      expect(left, `English left on ${path} in ${language}`).toEqual([]);
    });
});
