// The share page in the bet's language (docs/product-rules.md#languages): a
// link-preview crawler, which names no language, gets the page, its preview
// tags and the card in the language of the bet's creator; a person whose
// browser names a language reads the page in theirs, while the preview tags
// and the card stay the bet's (one preview is shown to a whole chat).
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, uniqueName } from "../support/server";

const server = useServer({ PUBLIC_ORIGIN: "https://fairshake.example" });

const NBSP = "\u00a0";
const shown = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&nbsp;|&#160;/g, NBSP);
const metaOf = (html: string, property: string) =>
  new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"/>`).exec(
    shown(html),
  )?.[1];

/** Someone who signed up from a browser asking for `acceptLanguage` makes a bet. */
async function betBy(acceptLanguage: string, over: Record<string, unknown>) {
  const name = uniqueName("sh");
  const client = new Client(server.url);
  const reg = await client.request("POST", "/api/register", {
    json: {
      username: name,
      email: `${name}@example.com`,
      password: "secret123",
    },
    headers: { "Accept-Language": acceptLanguage },
  });
  expect(reg.status, reg.text).toBe(201);
  const bet = await client.post("/api/bets", {
    title: "Wer gewinnt das Derby?",
    description: "Der Verlierer zahlt die Brezeln.",
    amount: 1000,
    currency: "EUR",
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
    ...over,
  });
  expect(bet.status, bet.text).toBe(201);
  return { client, id: bet.data.id as number };
}

describe("the share page in the bet's language", () => {
  it("a crawler gets a German creator's bet in German: page, tags and card", async () => {
    const { id } = await betBy("de-DE,de;q=0.9", {});
    const crawler = new Client(server.url);
    const page = await crawler.get(`/share/${id}`, { Accept: "text/html" });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="de"');
    const description = `Eine Wette um 1.000,00${NBSP}€ auf Fairshake: Der Verlierer zahlt die Brezeln.`;
    expect(metaOf(page.text, "og:description")).toBe(description);
    expect(metaOf(page.text, "twitter:description")).toBe(description);
    expect(metaOf(page.text, "og:title")).toBe("Wer gewinnt das Derby?");
    expect(shown(page.text)).toContain("Anmelden und weiter");
    expect(shown(page.text)).toContain("Einladungscode");
    expect(page.text).not.toContain("Log in to continue");

    const image = await fetch(`${server.url}/api/bets/${id}/share-image`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    // The card is the German one, kept apart from any other language's.
    expect(image.headers.get("etag")).toMatch(/^"bet-\d+-\d+-de"$/);
    const png = Buffer.from(await image.arrayBuffer());
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  });

  it("a Brazilian visitor reads the page in Portuguese; the preview stays German", async () => {
    const { id } = await betBy("de", {});
    const visitor = new Client(server.url);
    const page = await visitor.get(`/share/${id}`, {
      Accept: "text/html",
      "Accept-Language": "pt-BR,pt;q=0.9",
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="pt-BR"');
    expect(shown(page.text)).toContain("Entrar e continuar");
    expect(shown(page.text)).toContain(`1.000,00${NBSP}€`);
    expect(metaOf(page.text, "og:description")).toMatch(
      /^Eine Wette um 1\.000,00.€ auf Fairshake: /,
    );
    // The picker's cookie wins over the browser's list.
    const spanish = await new Client(server.url).get(`/share/${id}`, {
      Accept: "text/html",
      "Accept-Language": "pt-BR",
      Cookie: "lang=es",
    });
    expect(spanish.text).toContain('<html lang="es"');
    expect(shown(spanish.text)).toContain("Iniciar sesión y continuar");
  });

  it("an English creator's bet stays English for a crawler", async () => {
    const { id } = await betBy("en-US", { currency: "USD", amount: 15 });
    const page = await new Client(server.url).get(`/share/${id}`, {
      Accept: "text/html",
    });
    expect(page.text).toContain('<html lang="en"');
    expect(metaOf(page.text, "og:description")).toBe(
      "A $15.00 bet on Fairshake: Der Verlierer zahlt die Brezeln.",
    );
    expect(shown(page.text)).toContain("Log in to continue");
    const image = await fetch(`${server.url}/api/bets/${id}/share-image`);
    expect(image.headers.get("etag")).toMatch(/^"bet-\d+-\d+"$/);
  });
});
