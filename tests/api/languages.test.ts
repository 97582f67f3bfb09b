// The page's language (docs/product-rules.md#languages): decided on the
// server from the `lang` cookie, the person's saved language, then
// Accept-Language, else English; saved at sign-up and at each pick; the
// picker is a plain form; the /api reads and sets it in English.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp, uniqueName } from "../support/server";
import { UNKNOWN_LANGUAGE } from "~/domain/language";

const server = useServer();

const htmlLang = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1];
const page = (client: Client, path: string, headers = {}) =>
  client.get(path, { Accept: "text/html", ...headers });

const pick = (client: Client, language: string, returnTo = "/help") =>
  client.request("POST", "/language", {
    body: new URLSearchParams({ language, returnTo }).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "text/html",
    },
  });

async function register(acceptLanguage?: string) {
  const client = new Client(server.url);
  const name = uniqueName();
  const res = await client.request("POST", "/api/register", {
    json: {
      username: name,
      email: `${name}@example.com`,
      password: "secret123",
    },
    headers: acceptLanguage ? { "Accept-Language": acceptLanguage } : {},
  });
  expect(res.status, res.text).toBe(201);
  return { client, res };
}

describe("a person's language over /api", () => {
  it("is saved at sign-up from the browser's languages, and GET /api/user has it", async () => {
    for (const [header, language] of [
      ["de-DE,de;q=0.9,en;q=0.5", "de"],
      ["pt-PT", "pt-BR"],
      ["es-MX", "es"],
      ["ja", "en"],
      [undefined, "en"],
    ] as const) {
      const { client, res } = await register(header);
      expect(res.data.language).toBe(language);
      expect((await client.get("/api/user")).data.language).toBe(language);
    }
  });

  it("PATCH /api/user/profile takes en, es, de or pt-BR; anything else is 400", async () => {
    const { client } = await signUp(server.url);
    for (const language of ["es", "de", "pt-BR", "en"]) {
      const set = await client.patch("/api/user/profile", { language });
      expect(set.status, set.text).toBe(200);
      expect(set.data.language).toBe(language);
      expect((await client.get("/api/user")).data.language).toBe(language);
    }
    for (const language of ["fr", "pt", "DE", 7, null]) {
      const bad = await client.patch("/api/user/profile", { language });
      expect(bad.status, JSON.stringify(language)).toBe(400);
      expect(bad.data.error).toBe("Validation Error");
      expect(bad.data.fieldErrors.language).toEqual([UNKNOWN_LANGUAGE]);
    }
    expect((await client.get("/api/user")).data.language).toBe("en");
  });
});

describe("the page's language, decided on the server", () => {
  it("follows Accept-Language by q-value, else English", async () => {
    const client = new Client(server.url);
    for (const [header, lang] of [
      ["de-DE,de;q=0.9", "de"],
      ["de-AT", "de"],
      ["es-MX", "es"],
      ["pt", "pt-BR"],
      ["fr;q=1,pt-BR;q=0.4,es;q=0.6", "es"],
      ["ja", "en"],
    ]) {
      const res = await page(client, "/auth", { "Accept-Language": header! });
      expect(res.status).toBe(200);
      expect(htmlLang(res.text), header).toBe(lang);
    }
    expect(htmlLang((await page(client, "/auth")).text)).toBe("en");
  });

  it("the picker sets the cookie without JavaScript and returns to the page", async () => {
    const client = new Client(server.url);
    const res = await pick(client, "es", "/help?x=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/help?x=1");
    expect(res.headers.get("Set-Cookie")).toMatch(/^lang=es;/);
    const after = await page(client, "/auth", { "Accept-Language": "de" });
    expect(htmlLang(after.text)).toBe("es");
    // Not a language, or an outside address: refused, or home.
    expect((await pick(client, "fr")).status).toBe(400);
    const away = await pick(client, "de", "//evil.example");
    expect(away.headers.get("Location")).toBe("/");
  });

  it("a saved English beats a German browser", async () => {
    const { client } = await register();
    expect((await client.get("/api/user")).data.language).toBe("en");
    const home = await page(client, "/", { "Accept-Language": "de-DE" });
    expect(home.status).toBe(200);
    expect(htmlLang(home.text)).toBe("en");
  });

  it("a signed-in person's saved language comes before the browser's; the cookie before both", async () => {
    const { client } = await signUp(server.url);
    await client.patch("/api/user/profile", { language: "pt-BR" });
    const saved = await page(client, "/", { "Accept-Language": "de" });
    expect(saved.status).toBe(200);
    expect(htmlLang(saved.text)).toBe("pt-BR");
    // Picking one saves it for them (their emails follow it) and sets the cookie.
    expect((await pick(client, "de", "/")).status).toBe(302);
    expect((await client.get("/api/user")).data.language).toBe("de");
    const picked = await page(client, "/", { "Accept-Language": "es" });
    expect(htmlLang(picked.text)).toBe("de");
    expect(picked.text).toContain(">Meine Wetten<");
  });
});
