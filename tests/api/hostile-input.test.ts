// Hostile input on every state-changing call of the API (docs/api.md): never
// a 5xx, and text that is accepted comes back exactly and renders escaped.
// The calls come from tests/support/route-table.ts, checked against
// app/routes.ts, so a new API route without a row fails here.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { signUp } from "../support/server";
import {
  HTML_PAYLOADS,
  ODD_TEXT,
  SQL_PAYLOADS,
  hostileJsonBody,
} from "../support/hostile";
import {
  WRITE_METHODS,
  apiRoutesWithoutRow,
  fillPath,
  listAppRoutes,
  missingApiRoutes,
  presentApiCalls,
  type ApiCall,
} from "../support/route-table";
import { Client } from "../support/server";
import {
  betIn,
  inTwoDays,
  joinBetAs,
  newBet,
  person,
  type BetRef,
  type Person,
} from "../support/world";

const RUNS = 30;
const appRoutes = listAppRoutes();
const served = new Set(appRoutes.map((r) => r.path));
const writeCalls = presentApiCalls(appRoutes).filter((c) =>
  WRITE_METHODS.has(c.method),
);

const server = useServer();

/** Fails with the request that broke the server, not just "500". */
async function send(
  client: Client,
  method: string,
  p: string,
  body: string,
  contentType: string,
) {
  const res = await client.request(method, p, {
    body,
    headers: { "Content-Type": contentType },
  });
  expect(
    res.status,
    `${method} ${p} ${contentType} ${JSON.stringify(body).slice(0, 300)} → ${res.status} ${res.text.slice(0, 200)}`,
  ).toBeLessThan(500);
  return res;
}

describe("the table of calls", () => {
  it("has a row for every API route in app/routes.ts", () => {
    expect(apiRoutesWithoutRow(appRoutes)).toEqual([]);
  });

  it("serves every call of docs/api.md, and each write method has a module action", () => {
    // The table is the contract: a row whose route is gone fails here.
    expect(missingApiRoutes(appRoutes)).toEqual([]);
    for (const call of writeCalls) {
      const route = appRoutes.find((r) => r.path === call.route)!;
      expect(route.hasAction, `${call.method} ${call.route}`).toBe(true);
    }
    expect(writeCalls.length).toBeGreaterThan(15);
  });
});

/** A fresh person (and partner) per call, so one call's fuzz cannot starve another. */
async function setUp(call: ApiCall) {
  const me = await person(server.url, "fz");
  let bet: BetRef | undefined;
  if (call.route.includes(":id")) {
    const partner = await person(server.url, "pt");
    bet = await betIn(call.bet ?? "pending", "private", me, partner);
  }
  const p = call.path ?? fillPath(call.route, { id: bet?.id, code: bet?.code });
  return { me, path: p };
}

describe.each(
  writeCalls.map((c) => [`${c.method} ${c.path ?? c.route}`, c] as const),
)("%s", (_name, call) => {
  it("never answers 5xx to hostile JSON", async () => {
    const { me, path: p } = await setUp(call);
    await fc.assert(
      fc.asyncProperty(hostileJsonBody(call.fields ?? []), async (b) => {
        await send(me.client, call.method, p, b.body, b.contentType);
      }),
      { numRuns: RUNS },
    );
  });

  it("never answers 5xx to forms, text or no body (415, not 500)", async () => {
    const { me, path: p } = await setUp(call);
    for (const [type, body] of [
      ["application/x-www-form-urlencoded", "title=a&amount=1"],
      ["multipart/form-data; boundary=x", "--x\r\nbroken"],
      ["text/plain", "hello"],
      ["", ""],
    ] as const) {
      const res = await send(me.client, call.method, p, body, type);
      if (!call.rawBody)
        expect(res.status).toBe(
          call.multipart && type.startsWith("multipart/") ? 400 : 415,
        );
    }
  });
});

const hostileParam = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.constantFrom(
    "0",
    "-1",
    "1.5",
    "1e3",
    "99999999999999999999",
    "9007199254740993",
    "0x10",
    "%00",
    // A real NUL and other controls in a path (%00 once encoded).
    "\u0000",
    "AB\u0000CD",
    "\u0001",
    "' OR 1=1 --",
    "<script>",
    "..",
    "🎲",
  ),
);

describe("hostile path parameters", () => {
  const withParams = presentApiCalls(appRoutes).filter((c) =>
    /:(id|code)\b/.test(c.route),
  );
  // Pages too: every page route with a parameter, read and posted to.
  const pages = appRoutes.filter((r) => !r.api && r.params.length > 0);
  it.each(pages.map((r) => [r.path, r] as const))(
    "page %s never answers 5xx",
    async (_n, route) => {
      const me = await person(server.url, "pg");
      await fc.assert(
        fc.asyncProperty(hostileParam, fc.boolean(), async (raw, post) => {
          const p = route.path.replace(/:\w+/, encodeURIComponent(raw));
          const res = post
            ? await me.client.request("POST", p, {
                body: "intent=join",
                headers: {
                  Accept: "text/html",
                  "Content-Type": "application/x-www-form-urlencoded",
                },
              })
            : await me.client.get(p, { Accept: "text/html" });
          expect(
            res.status,
            `${post ? "POST" : "GET"} ${p} → ${res.text.slice(0, 200)}`,
          ).toBeLessThan(500);
        }),
        { numRuns: 20 },
      );
    },
  );

  it.each(withParams.map((c) => [`${c.method} ${c.route}`, c] as const))(
    "%s never answers 5xx",
    async (_n, call) => {
      const me = await person(server.url, "pp");
      await fc.assert(
        fc.asyncProperty(hostileParam, async (raw) => {
          const p = call.route.replace(/:(id|code)\b/, encodeURIComponent(raw));
          const res = await me.client.request(call.method, p, {
            ...(WRITE_METHODS.has(call.method) ? { json: {} } : {}),
          });
          expect(
            res.status,
            `${call.method} ${p} → ${res.text.slice(0, 200)}`,
          ).toBeLessThan(500);
        }),
        { numRuns: 25 },
      );
    },
  );
});

/** Text a person may type, payloads included; the server trims the ends. */
const titleText = fc
  .oneof(
    fc.string({ unit: "binary", minLength: 3, maxLength: 60 }),
    fc.string({ unit: "grapheme", minLength: 3, maxLength: 30 }),
    fc.constantFrom(...HTML_PAYLOADS, ...SQL_PAYLOADS, ...ODD_TEXT),
    fc
      .tuple(
        fc.constantFrom(...HTML_PAYLOADS),
        fc.string({ unit: "binary", maxLength: 20 }),
      )
      .map(([a, b]) => `${a} ${b}`),
  )
  .map((s) => `T${s}Z`);

/**
 * Titles the API stores: no control characters in a one-line
 * field and nothing that cannot round-trip (a lone surrogate).
 */
const storableTitle = titleText.filter(
  // eslint-disable-next-line no-control-regex -- exactly what a title may not hold
  (s) => !/[\u0000-\u001f\u007f-\u009f]|\p{Cs}/u.test(s),
);

/** RFC 4180: quoted cells may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i += 1;
    } else cell += ch;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** The loser (who conceded) pays through the demo provider. */
async function settleAndPay(loser: Person, winner: Person, betId: number) {
  const settled = await loser.client.post(`/api/bets/${betId}/settle`, {
    winnerId: winner.user.id,
  });
  expect(settled.status, settled.text).toBe(200);
  const intent = await loser.client.post("/api/create-payment-intent", {
    betId,
  });
  expect(intent.status, intent.text).toBe(200);
  const confirm = await loser.client.post("/api/payments/demo/confirm", {
    paymentIntentId: intent.data.paymentIntentId,
    cardNumber: "4242 4242 4242 4242",
    expiry: "12/40",
    cvc: "123",
  });
  expect(confirm.status, confirm.text).toBe(200);
  const paid = await loser.client.post(`/api/bets/${betId}/record-payment`, {
    paymentIntentId: intent.data.paymentIntentId,
  });
  expect(paid.status, paid.text).toBe(200);
}

/** Every <script> in a page is ours: it carries the nonce. */
function expectNoForeignScript(html: string) {
  const scripts = html.match(/<script\b[^>]*>/gi) ?? [];
  for (const tag of scripts)
    expect(tag, "a script without our nonce").toMatch(/nonce=/);
  expect(html).not.toMatch(/<img src=x onerror/i);
  expect(html).not.toMatch(/<svg onload/i);
}

describe("accepted text comes back exactly and renders escaped", () => {
  let me: Person;
  beforeAll(async () => {
    me = await person(server.url, "rt");
  });

  it("POST /api/bets: title and description round-trip; pages escape them", async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(titleText, titleText, async (title, description) => {
        const res = await me.client.post("/api/bets", {
          title,
          description,
          amount: 5,
          deadline: inTwoDays(),
          visibility: "public",
        });
        expect(res.status, res.text).toBeLessThan(500);
        if (res.status !== 201) return;
        accepted += 1;
        const read = await me.client.get(`/api/bets/${res.data.id}`);
        expect(read.status).toBe(200);
        expect(read.data.title).toBe(title.trim());
        expect(read.data.description).toBe(description.trim());
        for (const page of [
          `/bet/${res.data.id}`,
          "/my-bets",
          `/share/${res.data.id}`,
        ]) {
          const html = await new Client(server.url).get(page, {
            Cookie: me.client.cookieHeader,
          });
          expect(html.status, page).toBeLessThan(500);
          expectNoForeignScript(html.text);
        }
      }),
      { numRuns: 25 },
    );
    expect(accepted).toBeGreaterThan(10);
  });

  it("PUT /api/bets/{id}: edited text round-trips", async () => {
    const partner = await person(server.url, "rp");
    const bet = await betIn("pending", "public", me, partner);
    await fc.assert(
      fc.asyncProperty(titleText, async (text) => {
        const description = `${text} is the whole story`;
        const res = await me.client.put(`/api/bets/${bet.id}`, {
          title: text,
          description,
          amount: 7,
          deadline: inTwoDays(),
          visibility: "public",
        });
        expect(res.status, res.text).toBeLessThan(500);
        if (res.status !== 200) return;
        const read = await me.client.get(`/api/bets/${bet.id}`);
        expect(read.data.title).toBe(text.trim());
        expect(read.data.description).toBe(description.trim());
        const html = await me.client.get(`/bet/${bet.id}`);
        expectNoForeignScript(html.text);
      }),
      { numRuns: 20 },
    );
  });

  it("settlement notes round-trip and render escaped on the approve screen", async () => {
    if (!served.has("/api/bets/:id/propose-settlement")) return;
    const partner = await person(server.url, "rn");
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(titleText, async (notes) => {
        const bet = await betIn("active", "public", me, partner);
        const res = await me.client.post(
          `/api/bets/${bet.id}/propose-settlement`,
          { winnerId: me.user.id, settlementNotes: notes },
        );
        expect(res.status, res.text).toBeLessThan(500);
        if (res.status !== 201) return;
        accepted += 1;
        const read = await partner.client.get(`/api/settlements/${bet.id}`);
        expect(read.status).toBe(200);
        expect(read.data.settlementNotes).toBe(notes.trim());
        const html = await partner.client.get(
          `/settlements/${bet.id}/approve`,
          { Accept: "text/html" },
        );
        expect(html.status).toBe(200);
        expectNoForeignScript(html.text);
      }),
      { numRuns: 15 },
    );
    expect(accepted).toBeGreaterThan(5);
  });

  it("hostile bet titles keep the CSV export well-formed and formula-free", async () => {
    if (!served.has("/api/financial-history.csv")) return;
    const loser = await person(server.url, "cl");
    const winner = await person(server.url, "cw");
    const today = new Date().toISOString().slice(0, 10);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          storableTitle,
          fc.constantFrom(
            '=HYPERLINK("http://evil.example","x")',
            "+1+1",
            "-2+3",
            "@SUM(A1:A2)",
            'a "quoted", comma; "more"',
            "\ttab first",
          ),
        ),
        async (title) => {
          const bet = await newBet(loser, { title, visibility: "private" });
          await joinBetAs(winner, bet);
          await settleAndPay(loser, winner, bet.id);
          const csv = await loser.client.get(
            `/api/financial-history.csv?startDate=2020-01-01&endDate=${today}`,
          );
          expect(csv.status).toBe(200);
          const rows = parseCsv(csv.text);
          expect(rows[0]).toEqual([
            "Date",
            "Type",
            "Description",
            "Amount",
            "Currency",
            "Status",
          ]);
          // The title survives inside its quoted cell (a leading ' may guard it).
          expect(
            rows.some((r) => r[2]?.replace(/^'/, "").includes(title.trim())),
            JSON.stringify(rows.slice(-2)),
          ).toBe(true);
          for (const row of rows.slice(1)) {
            expect(row, JSON.stringify(row)).toHaveLength(6);
            for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
          }
        },
      ),
      { numRuns: 10 },
    );
  });

  it("an avatar URL that is not a web address is refused", async () => {
    if (!served.has("/api/user/profile")) return;
    for (const avatarUrl of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "//evil.example/x.png",
      "file:///etc/passwd",
    ]) {
      const res = await me.client.patch("/api/user/profile", { avatarUrl });
      expect(res.status, avatarUrl).toBe(400);
    }
    expect((await me.client.get("/api/user")).data.avatarUrl).toBeNull();
  });

  it("an RTL override and an emoji survive exactly; a NUL is refused, not stored", async () => {
    const title = "ab \u202Eevil\u202C 🎲 <b>x</b>";
    const withNul = await me.client.post("/api/bets", {
      title: "a\u0000b",
      description: "Bytes\u0000in the middle",
      amount: 5,
      deadline: inTwoDays(),
      visibility: "public",
    });
    expect(withNul.status).toBe(400);
    const res = await me.client.post("/api/bets", {
      title,
      description: "Two lines\nin the middle",
      amount: 5,
      deadline: inTwoDays(),
      visibility: "public",
    });
    expect(res.status).toBe(201);
    const read = await me.client.get(`/api/bets/${res.data.id}`);
    expect(read.data.title).toBe(title);
    expect(read.data.description).toBe("Two lines\nin the middle");
    const html = await me.client.get(`/bet/${res.data.id}`);
    expect(html.text).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(html.text).not.toContain("<b>x</b>");
  });
});

describe("a payment intent id that names no intent", () => {
  // Found by the property above on PostgreSQL, which refuses a NUL in text:
  // the lookup failed and the call answered 500. A control character is now
  // refused at the door (400) before any lookup; a long id finds nothing.
  it("POST /api/payments/demo/confirm with a 300-character id is 404, never 500", async () => {
    const { client } = await signUp(server.url);
    const res = await client.post("/api/payments/demo/confirm", {
      paymentIntentId: "x".repeat(300),
      cardNumber: "4242 4242 4242 4242",
      expiry: "12/40",
      cvc: "123",
    });
    expect(res.status, res.text).toBe(404);
    expect(res.data).toEqual({ error: "Payment intent not found." });
  });

  it.each([["a\u0000b"], ["pi_\u0007"]])(
    "POST /api/payments/demo/confirm with %j is 400, never 500",
    async (paymentIntentId) => {
      const { client } = await signUp(server.url);
      const res = await client.post("/api/payments/demo/confirm", {
        paymentIntentId,
        cardNumber: "4242 4242 4242 4242",
        expiry: "12/40",
        cvc: "123",
      });
      expect(res.status, res.text).toBe(400);
      expect(res.data.fieldErrors.paymentIntentId[0]).toMatch(
        /control character/,
      );
    },
  );
});

// Control characters (docs/decisions/1062-control-characters-refused-at-the-door.md):
// PostgreSQL refuses a NUL in text, SQLite stores it; the door refuses
// every control character but tab and line breaks before any query, so the
// two engines take exactly the same text, and what SQLite took copies up.
const CONTROL_MESSAGE = /control character/i;
const REFUSED_CONTROLS = ["\u0000", "\u0001", "\u001b", "\u007f", "\u0085"];

describe("control characters are refused at the door on both engines", () => {
  it.each(
    writeCalls
      .filter((c) => !c.rawBody && (c.fields ?? []).length > 0)
      .flatMap((c) =>
        c
          .fields!.filter((f) => !/password$/i.test(f))
          .map((f) => [`${c.method} ${c.path ?? c.route} ${f}`, c, f] as const),
      ),
  )("%s with a NUL is 400, never stored", async (_n, call, field) => {
    const { me, path: p } = await setUp(call);
    const res = await me.client.request(call.method, p, {
      json: { [field]: `ab\u0000cd` },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.data.error).toMatch(CONTROL_MESSAGE);
    expect(res.data.fieldErrors?.[field]?.[0]).toMatch(CONTROL_MESSAGE);
  });

  it.each(REFUSED_CONTROLS.map((c) => [JSON.stringify(c), c] as const))(
    "sign-in and a reset with %s in the name are 400 with the message",
    async (_n, control) => {
      const client = new Client(server.url);
      for (const [p, body] of [
        ["/api/login", { username: `al${control}ice`, password: "secret123" }],
        ["/api/password-reset", { login: `al${control}ice` }],
        [
          "/api/password-reset/confirm",
          { token: `t${control}k`, password: "secret123" },
        ],
      ] as const) {
        const res = await client.post(p, body);
        expect(res.status, `${p} ${res.text}`).toBe(400);
        expect(res.data.error).toMatch(CONTROL_MESSAGE);
      }
    },
  );

  it("a NUL in an avatar URL is 400 and nothing is stored", async () => {
    const me = await person(server.url, "av");
    const res = await me.client.patch("/api/user/profile", {
      avatarUrl: "https://example.com/a\u0000.png",
    });
    expect(res.status, res.text).toBe(400);
    expect(res.data.fieldErrors.avatarUrl[0]).toMatch(CONTROL_MESSAGE);
    expect((await me.client.get("/api/user")).data.avatarUrl).toBeNull();
  });

  it("a NUL in a JSON key or a nested value is 400 too", async () => {
    const me = await person(server.url, "nk");
    for (const body of [
      { "ti\u0000tle": "x" },
      { keys: { p256dh: "a\u0000" } },
      { list: ["ok", "no\u0000"] },
    ]) {
      const res = await me.client.post("/api/bets", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.data.error).toMatch(CONTROL_MESSAGE);
    }
  });

  it("a NUL in the user search's query is 400; in a bet code, 404", async () => {
    const me = await person(server.url, "sq");
    const search = await me.client.get("/api/users/search?q=a%00b");
    expect(search.status, search.text).toBe(400);
    expect(search.data.error).toMatch(CONTROL_MESSAGE);
    const code = await me.client.get("/api/bets/code/AB%00CD");
    expect(code.status, code.text).toBe(404);
    const short = await me.client.get("/api/bets/code/%00");
    expect(short.status, short.text).toBe(404);
  });

  it("pages: sign-in, reset, profile and code search say so with 400; /join/{code} is 404", async () => {
    const me = await person(server.url, "pf");
    const form = (client: Client, p: string, body: string) =>
      client.request("POST", p, {
        body,
        headers: {
          Accept: "text/html",
          "Content-Type": "application/x-www-form-urlencoded",
        },
      });
    const anonymous = new Client(server.url);
    for (const [client, p, body] of [
      [anonymous, "/auth", "intent=login&username=al%00ice&password=secret123"],
      [anonymous, "/forgot-password", "login=al%00ice"],
      [
        anonymous,
        "/reset-password",
        "token=t%00k&password=a&confirmPassword=a",
      ],
      [me.client, "/profile/edit", "avatarUrl=https%3A%2F%2Fx.example%2F%00"],
      [me.client, "/search", "code=AB%00CD"],
    ] as const) {
      const res = await form(client, p, body);
      expect(res.status, `${p} ${res.text.slice(0, 300)}`).toBe(400);
      expect(res.text).toMatch(CONTROL_MESSAGE);
    }
    const reset = await anonymous.get("/reset-password?token=t%00k", {
      Accept: "text/html",
    });
    expect(reset.status).toBe(400);
    expect(reset.text).toMatch(CONTROL_MESSAGE);
    const join = await me.client.get("/join/AB%00CD", { Accept: "text/html" });
    expect(join.status).toBe(404);
    expect((await me.client.get("/api/user")).data.avatarUrl).toBeNull();
  });

  it("tab and line breaks stay allowed where a field has several lines; a password is any text", async () => {
    const me = await person(server.url, "ok");
    const res = await me.client.post("/api/bets", {
      title: "Plain title",
      description: "Line one\r\nline\ttwo",
      amount: 5,
      deadline: inTwoDays(),
      visibility: "public",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.data.description).toBe("Line one\r\nline\ttwo");
    // A password is hashed, never stored or looked up as text: refusing a
    // character in it could only lock someone out.
    const { client, user } = await signUp(server.url);
    const changed = await client.post("/api/user/password", {
      currentPassword: "secret123",
      newPassword: "se\u0000cr\u0007et",
    });
    expect(changed.status, changed.text).toBe(204);
    const login = await new Client(server.url).post("/api/login", {
      username: user.username,
      password: "se\u0000cr\u0007et",
    });
    expect(login.status, login.text).toBe(200);
  });
});
