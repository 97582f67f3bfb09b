// The sign-in, registration and password forms refuse in the page's
// language (docs/product-rules.md#languages): before signing in that is the
// picker's cookie, else the browser's Accept-Language. The /api keeps its
// English refusals (a contract for programs).
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp, uniqueName } from "../support/server";

/** What the page shows, its entities decoded. */
const wordsOn = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

const server = useServer();

const postForm = (
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  new Client(server.url).request("POST", path, {
    body: new URLSearchParams(fields).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "text/html",
      ...headers,
    },
  });

const GERMAN = { "Accept-Language": "de-DE,de;q=0.9" };

describe("account forms refuse in the page's language", () => {
  it("a German browser's bad registration: every message in German, the typed name back", async () => {
    const res = await postForm(
      "/auth?tab=register",
      {
        intent: "register",
        username: "ab",
        email: "not-an-address",
        password: "123",
        confirmPassword: "456",
      },
      GERMAN,
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain('<html lang="de"');
    const words = wordsOn(res.text);
    expect(words).toContain("Der Benutzername muss mindestens 3 Zeichen haben");
    expect(words).toContain("E-Mail ist ungültig");
    expect(words).toContain("Das Passwort muss mindestens 6 Zeichen haben");
    expect(words).toContain("Die Passwörter stimmen nicht überein");
    expect(res.text).not.toContain("Username must be");
  });

  it("a taken name, in Spanish by the picker's cookie; a wrong password in Portuguese", async () => {
    const { user } = await signUp(server.url);
    const taken = await postForm(
      "/auth?tab=register",
      {
        intent: "register",
        username: user.username,
        email: `${uniqueName("x")}@example.com`,
        password: "secret123",
        confirmPassword: "secret123",
      },
      { Cookie: "lang=es", ...GERMAN },
    );
    expect(taken.status).toBe(409);
    expect(wordsOn(taken.text)).toContain(
      "Ese nombre de usuario ya está en uso",
    );
    const wrong = await postForm(
      "/auth",
      { intent: "login", username: user.username, password: "not-it-at-all" },
      { "Accept-Language": "pt-PT" },
    );
    expect(wrong.status).toBe(401);
    const words = wordsOn(wrong.text);
    expect(words).toContain("Nome de usuário ou senha incorretos");
    expect(words).toContain("Não foi possível entrar");
  });

  it("English stays English, and the /api keeps its English refusals", async () => {
    const res = await postForm("/auth", {
      intent: "login",
      username: "nobody-here",
      password: "whatever",
    });
    expect(res.status).toBe(401);
    expect(wordsOn(res.text)).toContain("Invalid username or password");
    const api = await new Client(server.url).request("POST", "/api/login", {
      json: { username: "nobody-here", password: "whatever" },
      headers: GERMAN,
    });
    expect(api.status).toBe(401);
    expect(api.data.error).toBe("Invalid username or password");
  });

  it("the password pages: a dead reset link and a missing login in German", async () => {
    const dead = await new Client(server.url).get(
      "/reset-password?token=not-a-live-token",
      { Accept: "text/html", ...GERMAN },
    );
    expect(wordsOn(dead.text)).toContain(
      "Dieser Link zum Zurücksetzen ist ungültig oder abgelaufen.",
    );
    const empty = await postForm("/forgot-password", { login: " " }, GERMAN);
    expect(empty.status).toBe(400);
    expect(wordsOn(empty.text)).toContain(
      "Gib deinen Benutzernamen oder deine E-Mail ein",
    );
    const badLink = await postForm(
      "/verify-email",
      { intent: "verify", token: "x".repeat(43) },
      GERMAN,
    );
    expect(badLink.status).toBe(400);
    expect(wordsOn(badLink.text)).toContain(
      "Dieser Link ist ungültig oder abgelaufen.",
    );
  });
});
