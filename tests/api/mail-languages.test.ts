// Mail and push speak the recipient's saved language, not the sender's
// (docs/product-rules.md#languages): a German person gets German mail and
// German pushes, the amount of a euro bet written the German way; the
// English person on the same bet stays in English. Delivered to a real SMTP
// server and to a local push service that decrypts the payload.
import { describe, expect, it } from "vitest";
import { useServer, useSmtp, usePushService } from "../support/use-server";
import { joinBetAs, newBet, type Person } from "../support/world";
import { Client, uniqueName } from "../support/server";
import { linkIn } from "../support/smtp";

const smtp = useSmtp();
const push = usePushService();
const server = useServer(() => ({
  SMTP_URL: smtp.url,
  OUTBOX_POLL_MS: "200",
  OUTBOX_RETRY_BASE_MS: "300",
  PUSH_ENDPOINT_HOSTS: "127.0.0.1",
}));

/** Signs up from a browser that asks for `acceptLanguage`, and confirms the address. */
async function verifiedPerson(
  prefix: string,
  acceptLanguage: string,
  confirmSubject: string,
): Promise<Person> {
  const name = uniqueName(prefix);
  const email = `${name}@example.com`;
  const client = new Client(server.url);
  const reg = await client.request("POST", "/api/register", {
    json: { username: name, email, password: "secret123" },
    headers: { "Accept-Language": acceptLanguage },
  });
  expect(reg.status, reg.text).toBe(201);
  const mail = await smtp.waitFor(
    (m) => m.to === email && m.subject === confirmSubject,
  );
  const token = new URL(
    linkIn(mail, "/verify-email"),
    server.url,
  ).searchParams.get("token");
  const verified = await client.post("/api/verify-email", { token });
  expect(verified.status, verified.text).toBe(200);
  return { client, user: { ...reg.data, email } };
}

const NBSP = "\u00a0";

describe("mail and push in the recipient's language", () => {
  it("a German person hears in German, amounts the German way; the English one in English", async () => {
    const anna = await verifiedPerson(
      "de",
      "de-DE,de;q=0.9,en;q=0.5",
      "Bestätige deine E-Mail-Adresse",
    );
    const confirm = smtp.mails.find((m) => m.to === anna.user.email)!;
    expect(confirm.text).toContain(`Hallo ${anna.user.username},`);
    expect(confirm.text).toContain("E-Mail bestätigen");
    expect(confirm.html).toContain('<html lang="de">');
    const bob = await verifiedPerson(
      "en",
      "en-US",
      "Confirm your email address",
    );
    expect((await anna.client.get("/api/user")).data.language).toBe("de");

    const annasBrowser = push.subscribe();
    expect(
      (await anna.client.post("/api/push-subscriptions", annasBrowser)).status,
    ).toBe(201);
    const bet = await newBet(anna, {
      title: "Derby in München",
      amount: 1000,
      currency: "EUR",
    });
    await joinBetAs(bob, bet);

    const joined = await smtp.waitFor(
      (m) =>
        m.to === anna.user.email &&
        m.subject === "Jemand ist deiner Wette beigetreten",
    );
    expect(joined.text).toContain(
      `${bob.user.username} ist deiner Wette „Derby in München“ beigetreten.`,
    );
    expect(joined.text).toContain("In Fairshake öffnen");
    expect(joined.text).toContain("Abmelden: ");
    expect(joined.html).toContain("Benachrichtigungseinstellungen");
    expect(joined.text).not.toMatch(/\b(Hi|joined|Open in)\b/);
    const annasId = annasBrowser.endpoint.split("/").pop();
    const joinedPush = await push.waitFor((p) => p.id === annasId);
    expect(joinedPush.payload).toEqual({
      title: "Jemand ist deiner Wette beigetreten",
      body: `${bob.user.username} ist deiner Wette „Derby in München“ beigetreten`,
      url: `/bet/${bet.id}`,
    });

    // Bob proposes himself, Anna approves: each hears the result in their own language.
    const proposed = await bob.client.post(
      `/api/bets/${bet.id}/propose-settlement`,
      { winnerId: bob.user.id },
    );
    expect(proposed.status, proposed.text).toBe(201);
    const waiting = await smtp.waitFor(
      (m) =>
        m.to === anna.user.email &&
        m.subject === "Ein Ergebnis wartet auf deine Antwort",
    );
    expect(waiting.text).toContain(
      `${bob.user.username} schlägt für „Derby in München“ vor: sich selbst als Gewinner`,
    );
    const approved = await anna.client.post(
      `/api/settlements/${bet.id}/approve`,
    );
    expect(approved.status, approved.text).toBe(200);

    const lost = await smtp.waitFor(
      (m) =>
        m.to === anna.user.email && m.subject === "Eine Wette ist entschieden",
    );
    expect(lost.text).toContain(
      `${bob.user.username} hat „Derby in München“ gewonnen (beide Seiten einig): bitte zahle 1.000,00${NBSP}€ bis `,
    );
    expect(lost.text).not.toMatch(/\b(AM|PM)\b/);
    const lostPush = await push.waitFor(
      (p) =>
        p.id === annasId && p.payload.title === "Eine Wette ist entschieden",
    );
    expect(lostPush.payload.body).toContain(`1.000,00${NBSP}€`);

    const won = await smtp.waitFor(
      (m) => m.to === bob.user.email && m.subject === "A bet is settled",
    );
    expect(won.text).toContain(`Hi ${bob.user.username},`);
    expect(won.text).toContain(
      `You won "Derby in München" (both sides agreed); ${anna.user.username} owes you €1,000.00.`,
    );
    expect(won.html).toContain('<html lang="en">');
    expect(push.refused).toEqual([]);
  });

  it("the language saved when the mail goes out is the one it is written in", async () => {
    const carla = await verifiedPerson(
      "pt",
      "pt-PT",
      "Confirme seu endereço de e-mail",
    );
    // She picks Spanish; the next mail is Spanish.
    const picked = await carla.client.patch("/api/user/profile", {
      language: "es",
    });
    expect(picked.status, picked.text).toBe(200);
    const dan = await verifiedPerson("en", "en", "Confirm your email address");
    const bet = await newBet(carla, {
      title: "Año nuevo",
      amount: 50,
      currency: "EUR",
    });
    await joinBetAs(dan, bet);
    const joined = await smtp.waitFor(
      (m) =>
        m.to === carla.user.email &&
        m.subject === "Alguien se unió a tu apuesta",
    );
    expect(joined.text).toContain(`Hola, ${carla.user.username}:`);
    expect(joined.text).toContain(
      `${dan.user.username} se unió a tu apuesta «Año nuevo».`,
    );
  });
});
