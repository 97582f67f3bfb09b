// A refusal the model words in English reaches a page in the page's own
// language (app/framework/page-words.server.ts, docs/product-rules.md#languages),
// on both engines: a field's error and a form's message on a plain form post
// without JavaScript, the language from the picker's cookie or the person's
// saved language; the /api still answers in English.
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";

const server = useServer();

const form = (
  client: Client,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  client.request("POST", path, {
    body: new URLSearchParams(fields).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "text/html",
      ...headers,
    },
  });

const pick = (client: Client, language: string) =>
  form(client, "/language", { language, returnTo: "/" });

const betFields = (amount: string) => ({
  title: "x",
  description: "ok",
  amount,
  currency: "EUR",
  visibility: "public",
  deadlineDate: "",
  timeZone: "Europe/Berlin",
});

describe("refusals in the page's language", () => {
  let german: Client;
  let betId: number;
  beforeAll(async () => {
    german = (await signUp(server.url)).client;
    expect((await pick(german, "de")).status).toBe(302);
    const bet = await german.post("/api/bets", {
      title: "Derby",
      description: "Wer gewinnt das Derby?",
      amount: 10,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
    });
    expect(bet.status, bet.text).toBe(201);
    betId = bet.data.id;
  });

  it("a German form post gets German field errors, an English one English", async () => {
    const de = await form(german, "/create-bet", betFields("1,000"));
    expect(de.status).toBe(400);
    expect(de.text).toContain("Fehler beim Erstellen der Wette");
    expect(de.text).toContain("Der Titel muss mindestens 2 Zeichen lang sein.");
    expect(de.text).toContain("Bitte wähle ein Datum.");
    // One thousand the English way on a German page: the German form shown.
    expect(de.text).toContain("Schreib tausend als 1.000 oder 1000.");
    expect(de.text).not.toContain("Title must be at least");

    const { client: english } = await signUp(server.url);
    const en = await form(english, "/create-bet", betFields("1.000"));
    expect(en.status).toBe(400);
    expect(en.text).toContain("Title must be at least 2 characters.");
    expect(en.text).toContain("Write one thousand as 1,000 or 1000.");
  });

  it("a refusal by the rules comes in Portuguese to a Brazilian browser", async () => {
    const { client: stranger } = await signUp(server.url);
    // No cookie: the saved language (English at sign-up by API) would win,
    // so the picker chooses Portuguese for this person.
    expect((await pick(stranger, "pt-BR")).status).toBe(302);
    const res = await form(stranger, `/settle-bet/${betId}`, {
      winnerId: "1",
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain("Só quem criou a aposta pode resolvê-la");
  });

  it("a share link that leads nowhere says so in the page's language", async () => {
    const missing = await german.get("/share/99999999", {
      Accept: "text/html",
    });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain("Wette nicht gefunden");
    const invalid = await german.get("/share/not-a-bet", {
      Accept: "text/html",
    });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain("Dieser Teilen-Link ist ungültig.");
  });

  it("the /api keeps English, whatever the language", async () => {
    const res = await german.post("/api/bets", {
      title: "x",
      description: "ok",
      amount: 10,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "public",
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.data)).toContain("Title must be at least");
  });

  it("a toast the server words follows the page's language", async () => {
    const { client: friend } = await signUp(server.url);
    expect((await pick(friend, "es")).status).toBe(302);
    const joined = await form(friend, `/bet/${betId}`, { intent: "join" });
    expect(joined.status).toBe(302);
    const page = await friend.get(`/bet/${betId}`, { Accept: "text/html" });
    expect(page.text).toContain("¡Te uniste a la apuesta!");
  });
});
