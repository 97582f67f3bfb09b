// Hostile input on every HTML form action (the no-JS door): url-encoded and
// multipart bodies carrying the real `intent` values with hostile fields,
// and bodies no browser sends. Never a 5xx; accepted text comes back exactly
// and renders escaped. Every route module in app/routes.ts that exports an
// action must have a row in FORM_ACTIONS.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { HTML_PAYLOADS, ODD_TEXT, hostileString } from "../support/hostile";
import { fillPath, listAppRoutes } from "../support/route-table";
import { Client } from "../support/server";
import {
  betIn,
  person,
  type BetRef,
  type BetState,
  type Person,
} from "../support/world";

type FormAction = {
  route: string;
  /** The real intent values the page's forms carry (none: no intent field). */
  intents: string[];
  fields: string[];
  /** Which bet `:id`/`:code` names; the poster is the bet's creator unless `as` says otherwise. */
  bet?: BetState;
  as?: "creator" | "participant";
  /** Posting signs the poster out (or in): give it its own person. */
  anonymous?: boolean;
  /**
   * The action reads no form, so a body no browser sends is no refusal: it
   * does what an empty form does (a redirect to `location`, `:id` filled).
   * Every other action answers such a body with 400 and UNREADABLE_FORM.
   */
  readsNoForm?: { location: string };
};

const BET_FIELDS = [
  "title",
  "description",
  "amount",
  "visibility",
  "deadlineDate",
  "deadlineTime",
  "includeTime",
  "timeZone",
];

export const FORM_ACTIONS: FormAction[] = [
  {
    route: "/auth",
    intents: ["login", "register"],
    fields: ["username", "email", "password", "confirmPassword", "return_to"],
    anonymous: true,
  },
  {
    route: "/logout",
    intents: [],
    fields: [],
    readsNoForm: { location: "/auth" },
  },
  { route: "/create-bet", intents: [], fields: BET_FIELDS },
  // The language picker (footer and profile), public and signed in alike.
  { route: "/language", intents: [], fields: ["language", "returnTo"] },
  {
    route: "/search",
    // The code search has no intent; the Friends tab's forms do.
    intents: ["send", "accept", "decline"],
    fields: ["code", "friendId", "return_to"],
  },
  {
    route: "/friends",
    intents: ["send", "accept", "decline"],
    fields: ["friendId", "return_to", "q"],
  },
  {
    route: "/profile",
    intents: ["payment-method"],
    fields: ["method", "connected"],
  },
  {
    route: "/profile/edit",
    intents: [],
    fields: ["username", "email", "avatarUrl", "avatar"],
  },
  { route: "/notifications", intents: ["mark-read"], fields: [] },
  {
    route: "/profile/data",
    intents: ["delete-account"],
    fields: ["password", "confirm"],
  },
  {
    route: "/profile/notifications",
    intents: [],
    fields: ["email.bet_joined", "push.bet_joined", "email.payment_due"],
  },
  {
    route: "/verify-email",
    intents: ["verify", "resend"],
    fields: ["token", "return_to"],
  },
  {
    route: "/forgot-password",
    intents: [],
    fields: ["login"],
    anonymous: true,
  },
  {
    route: "/reset-password",
    intents: [],
    fields: ["token", "password", "confirmPassword"],
    anonymous: true,
  },
  {
    route: "/profile/security",
    intents: ["change-password", "revoke", "revoke-others"],
    fields: ["currentPassword", "newPassword", "confirmPassword", "sessionId"],
  },
  {
    route: "/settle-bet/:id",
    intents: [],
    fields: ["winnerId"],
    bet: "active",
  },
  {
    route: "/bet/:id/rule",
    intents: [],
    fields: ["winnerId"],
    bet: "active",
  },
  {
    route: "/propose-settlement/:id",
    intents: [],
    fields: ["winnerId", "settlementNotes"],
    bet: "active",
  },
  {
    route: "/settlements/:id/approve",
    intents: [],
    fields: [],
    bet: "proposed",
    as: "participant",
    readsNoForm: { location: "/payment/:id" },
  },
  {
    route: "/settlements/:id/reject",
    intents: [],
    fields: ["rejectionReason"],
    bet: "proposed",
    as: "participant",
  },
  { route: "/payment/:id", intents: [], fields: ["method"], bet: "settled" },
  {
    route: "/checkout/:id",
    intents: ["stripe-checkout", "stripe-record"],
    fields: ["cardNumber", "expiry", "cvc", "paymentIntentId", "js"],
    bet: "settled",
  },
  {
    route: "/bet/:id",
    intents: ["join", "nudge", "refer"],
    fields: ["version"],
    bet: "pending",
    as: "participant",
  },
  {
    route: "/bet/:id/edit",
    intents: ["update", "delete"],
    fields: BET_FIELDS,
    bet: "pending",
  },
  {
    route: "/edit-bet/:id",
    intents: ["update", "delete"],
    fields: BET_FIELDS,
    bet: "pending",
  },
  {
    route: "/join/:code",
    intents: [],
    fields: ["version"],
    bet: "pending",
    as: "participant",
  },
];

/** What a page answers, with a 400, to a body it cannot read as a form. */
const UNREADABLE_FORM =
  "This form could not be read. Please reload the page and try again.";

const appRoutes = listAppRoutes();
const served = new Set(appRoutes.map((r) => r.path));
const present = FORM_ACTIONS.filter((f) => served.has(f.route));

const server = useServer();

describe("the table of form actions", () => {
  it("has a row for every page route whose module exports an action", () => {
    const withAction = appRoutes
      .filter((r) => !r.api && r.hasAction)
      .map((r) => r.path);
    const covered = new Set(FORM_ACTIONS.map((f) => f.route));
    expect(withAction.filter((p) => !covered.has(p))).toEqual([]);
    expect(withAction.length).toBeGreaterThan(4);
  });
});

type Body = {
  kind: "urlencoded" | "multipart" | "raw";
  entries: [string, string | Blob][];
  raw?: { type: string; body: string };
};

function formBody(action: FormAction): fc.Arbitrary<Body> {
  const intent = fc.oneof(
    {
      weight: 6,
      arbitrary: action.intents.length
        ? fc.constantFrom(...action.intents)
        : fc.constant(null),
    },
    { weight: 1, arbitrary: hostileString },
    // Names every object has: an intent table must not mistake them for its own.
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "constructor",
        "toString",
        "__proto__",
        "hasOwnProperty",
        "valueOf",
      ),
    },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  const fieldEntries = fc.array(
    fc.tuple(
      fc.oneof(
        {
          weight: 5,
          arbitrary: action.fields.length
            ? fc.constantFrom(...action.fields)
            : fc.string(),
        },
        { weight: 1, arbitrary: fc.string() },
      ),
      hostileString,
    ),
    { maxLength: action.fields.length + 3 },
  );
  const entries = fc.tuple(intent, fieldEntries).map(([i, rest]) => {
    const out: [string, string | Blob][] = i === null ? [] : [["intent", i]];
    return out.concat(rest);
  });
  return fc.oneof(
    {
      weight: 5,
      arbitrary: entries.map((e): Body => ({ kind: "urlencoded", entries: e })),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(entries, fc.boolean()).map(([e, withFile]): Body => ({
        kind: "multipart",
        // A file where text is expected.
        entries:
          withFile && action.fields[0]
            ? [
                ...e,
                [
                  action.fields[0],
                  new Blob(["<svg onload=alert(1)>"], {
                    type: "image/svg+xml",
                  }),
                ],
              ]
            : e,
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          { type: "text/plain", body: "intent=join" },
          { type: "application/json", body: '{"intent":"join"}' },
          { type: "multipart/form-data; boundary=zz", body: "--zz\r\nbroken" },
          { type: "multipart/form-data", body: "no boundary" },
          {
            type: "application/x-www-form-urlencoded",
            body: "%%%=%zz&a=%E0%A4%A&intent",
          },
          { type: "application/xml", body: "<x/>" },
        )
        .map((raw): Body => ({ kind: "raw", entries: [], raw })),
    },
  );
}

async function post(client: Client, p: string, b: Body) {
  let init: { body: BodyInit; headers: Record<string, string> };
  if (b.kind === "raw")
    init = { body: b.raw!.body, headers: { "Content-Type": b.raw!.type } };
  else if (b.kind === "urlencoded") {
    const params = new URLSearchParams();
    for (const [k, v] of b.entries)
      params.append(k, typeof v === "string" ? v : "file");
    init = {
      body: params.toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    };
  } else {
    const form = new FormData();
    for (const [k, v] of b.entries) form.append(k, v);
    init = { body: form, headers: {} };
  }
  const res = await client.request("POST", p, {
    ...init,
    headers: { Accept: "text/html", ...init.headers },
  });
  expect(
    res.status,
    `POST ${p} ${b.kind} ${JSON.stringify(b.raw ?? b.entries.map(([k, v]) => [k, typeof v === "string" ? v.slice(0, 80) : "<file>"]))} → ${res.status} ${res.text.slice(0, 200)}`,
  ).toBeLessThan(500);
  return res;
}

async function setUp(
  action: FormAction,
): Promise<{ poster: Person | Client; path: string; betId?: number }> {
  if (action.anonymous)
    return { poster: new Client(server.url), path: action.route };
  const creator = await person(server.url, "fc");
  const other = await person(server.url, "fo");
  let bet: BetRef | undefined;
  if (action.bet) bet = await betIn(action.bet, "public", creator, other);
  const poster = action.as === "participant" ? other : creator;
  return {
    poster,
    path: fillPath(action.route, { id: bet?.id, code: bet?.code }),
    betId: bet?.id,
  };
}

describe.each(present.map((a) => [a.route, a] as const))(
  "POST %s",
  (_r, action) => {
    it("never answers 5xx to hostile or malformed form bodies", async () => {
      const { poster, path: p } = await setUp(action);
      const client = poster instanceof Client ? poster : poster.client;
      await fc.assert(
        fc.asyncProperty(formBody(action), async (b) => {
          await post(client, p, b);
        }),
        { numRuns: 30 },
      );
    });

    it("answers a body no browser sends with 400 and the page saying so", async () => {
      const answers = [];
      const expected = [];
      for (const raw of [
        { type: "text/plain", body: "hello" },
        { type: "application/json", body: "{}" },
        { type: "multipart/form-data; boundary=q", body: "--q\r\nnope" },
      ]) {
        // A fresh poster and bet each time: an action that reads no form
        // acts, and must meet each body in the same state.
        const { poster, path: p, betId } = await setUp(action);
        const client = poster instanceof Client ? poster : poster.client;
        const res = await post(client, p, { kind: "raw", entries: [], raw });
        answers.push({
          type: raw.type,
          status: res.status,
          location: res.headers.get("location"),
          says: res.text.includes(UNREADABLE_FORM),
        });
        expected.push(
          action.readsNoForm
            ? {
                type: raw.type,
                status: 302,
                location: fillPath(action.readsNoForm.location, { id: betId }),
                says: false,
              }
            : {
                type: raw.type,
                status: 400,
                location: null,
                says: true,
              },
        );
      }
      expect(answers).toEqual(expected);
    });
  },
);

const dateIn = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const formText = fc
  .oneof(
    fc.string({ unit: "binary", minLength: 3, maxLength: 40 }),
    fc.constantFrom(...HTML_PAYLOADS, ...ODD_TEXT),
    fc
      .tuple(
        fc.constantFrom(...HTML_PAYLOADS),
        fc.string({ unit: "grapheme", maxLength: 10 }),
      )
      .map(([a, b]) => a + b),
  )
  .map((s) => `F${s}Q`);

describe("text accepted through a form", () => {
  it("comes back exactly through the API and renders escaped", async () => {
    const me = await person(server.url, "ft");
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        formText,
        formText,
        fc.boolean(),
        async (title, description, multipart) => {
          const entries: [string, string][] = [
            ["title", title],
            ["description", description],
            ["amount", "12"],
            ["visibility", "public"],
            ["deadlineDate", dateIn(3)],
            ["timeZone", "UTC"],
          ];
          const res = await post(me.client, "/create-bet", {
            kind: multipart ? "multipart" : "urlencoded",
            entries,
          });
          if (res.status !== 302) return;
          accepted += 1;
          const id = /^\/bet\/(\d+)$/.exec(
            res.headers.get("location") ?? "",
          )?.[1];
          expect(id, res.headers.get("location") ?? "").toBeDefined();
          const read = await me.client.get(`/api/bets/${id}`);
          // What was sent: multipart encoding turns every line break into
          // CRLF (as browsers do for every form); the server trims the ends.
          const sent = (v: string) =>
            (multipart ? v.replace(/\r\n|\r|\n/g, "\r\n") : v).trim();
          expect(read.data.title).toBe(sent(title));
          expect(read.data.description).toBe(sent(description));
          const html = await me.client.get(`/bet/${id}`);
          for (const tag of html.text.match(/<script\b[^>]*>/gi) ?? [])
            expect(tag).toMatch(/nonce=/);
          expect(html.text).not.toMatch(/<img src=x onerror|<svg onload/i);
        },
      ),
      { numRuns: 25 },
    );
    expect(accepted).toBeGreaterThan(10);
  });
});
