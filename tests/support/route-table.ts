// The app's routes, read from app/routes.ts itself, and the API table of
// docs/api.md written out once. The hostile-input, authorisation and
// security suites are generated from these, and each cross-checks them so a
// new route without an entry fails a test instead of going unchecked.
import fs from "node:fs";
import path from "node:path";
import routes from "~/routes";

type RouteNode = {
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteNode[];
};

export type AppRoute = {
  /** "/bet/:id", "/api/bets/:id/join" … ("/" for the index route). */
  path: string;
  file: string;
  api: boolean;
  /** Inside the protected app layout (guarded: anonymous → /auth). */
  guarded: boolean;
  params: string[];
  hasLoader: boolean;
  hasAction: boolean;
};

function moduleExports(file: string) {
  const source = fs.readFileSync(path.join("app", file), "utf8");
  const exported = (name: string) =>
    new RegExp(
      `export\\s+(async\\s+)?function\\s+${name}\\b|export\\s+const\\s+${name}\\b`,
    ).test(source);
  return { hasLoader: exported("loader"), hasAction: exported("action") };
}

/** Every route in app/routes.ts, layouts flattened, catch-alls left out. */
export function listAppRoutes(): AppRoute[] {
  const out: AppRoute[] = [];
  const walk = (nodes: RouteNode[], parent: string, guarded: boolean) => {
    for (const node of nodes) {
      const here = node.path
        ? `${parent.replace(/\/$/, "")}/${node.path}`
        : parent;
      if (node.children) {
        walk(
          node.children,
          here,
          guarded || node.file === "routes/app-layout.tsx",
        );
        continue;
      }
      if (here.endsWith("*")) continue;
      out.push({
        path: here || "/",
        file: node.file,
        api: here.startsWith("/api/"),
        guarded,
        params: [...here.matchAll(/:(\w+)/g)].map((m) => m[1]!),
        ...moduleExports(node.file),
      });
    }
  };
  walk(routes as RouteNode[], "", false);
  return out;
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Which bet a call's `:id` names in the generated suites. */
export type BetFixture = "pending" | "active" | "proposed" | "settled";

export type ApiCall = {
  method: Method;
  /** The routes.ts pattern this call is served by. */
  route: string;
  /** A concrete path when the pattern's param is not an id ("/api/user/bets/created"). */
  path?: string;
  /** "public": answers without a session (docs/api.md); else 401 without one. */
  access: "public" | "session";
  /** The body's fields, for shaped hostile bodies. */
  fields?: string[];
  /** Which of my bets `:id` names when the call is fuzzed. */
  bet?: BetFixture;
  /** Reads its raw body itself (a signed webhook): no JSON door. */
  rawBody?: boolean;
  /** An answer that never ends by itself (an event stream): read its head only. */
  stream?: boolean;
  /** Also takes multipart/form-data (a message with photos): a broken one is 400, not 415. */
  multipart?: boolean;
};

/** docs/api.md, one row per call. */
export const API_CALLS: ApiCall[] = [
  {
    method: "POST",
    route: "/api/register",
    access: "public",
    fields: ["username", "email", "password"],
  },
  {
    method: "POST",
    route: "/api/login",
    access: "public",
    fields: ["username", "password"],
  },
  // Idempotent: 204 with or without a session (docs/api.md lists no refusal).
  { method: "POST", route: "/api/logout", access: "public" },
  { method: "GET", route: "/api/user", access: "session" },
  // Your data (docs/product-rules.md#your-data)
  { method: "GET", route: "/api/user/export", access: "session" },
  {
    method: "DELETE",
    route: "/api/user",
    access: "session",
    fields: ["password"],
  },
  {
    method: "PATCH",
    route: "/api/user/profile",
    access: "session",
    fields: ["username", "email", "avatarUrl"],
  },
  {
    method: "POST",
    route: "/api/user/payment-methods",
    access: "session",
    fields: ["method", "connected"],
  },
  { method: "GET", route: "/api/users/:id", access: "session" },
  {
    method: "GET",
    route: "/api/users/search",
    path: "/api/users/search?q=al",
    access: "session",
  },
  { method: "GET", route: "/api/bets", access: "public" },
  {
    method: "POST",
    route: "/api/bets",
    access: "session",
    fields: ["title", "description", "amount", "deadline", "visibility"],
  },
  { method: "GET", route: "/api/bets/:id", access: "session" },
  {
    method: "PUT",
    route: "/api/bets/:id",
    access: "session",
    fields: ["title", "description", "amount", "deadline", "visibility"],
    bet: "pending",
  },
  { method: "DELETE", route: "/api/bets/:id", access: "session" },
  { method: "GET", route: "/api/bets/code/:code", access: "session" },
  {
    method: "POST",
    route: "/api/bets/:id/join",
    access: "session",
    fields: ["version"],
    bet: "pending",
  },
  { method: "GET", route: "/api/bets/:id/share-meta", access: "public" },
  { method: "GET", route: "/api/bets/:id/share-image", access: "public" },
  ...(["created", "joined", "completed"] as const).map((kind): ApiCall => ({
    method: "GET",
    route: "/api/user/bets/:kind",
    path: `/api/user/bets/${kind}`,
    access: "session",
  })),
  { method: "GET", route: "/api/settlements/:id", access: "session" },
  {
    method: "POST",
    route: "/api/bets/:id/propose-settlement",
    access: "session",
    fields: ["winnerId", "outcome", "settlementNotes"],
    bet: "active",
  },
  {
    method: "POST",
    route: "/api/settlements/:id/approve",
    access: "session",
    bet: "proposed",
  },
  {
    method: "POST",
    route: "/api/settlements/:id/reject",
    access: "session",
    fields: ["rejectionReason"],
    bet: "proposed",
  },
  {
    method: "POST",
    route: "/api/bets/:id/settle",
    access: "session",
    fields: ["winnerId"],
    bet: "active",
  },
  // Fair to the end (docs/api.md).
  {
    method: "POST",
    route: "/api/bets/:id/refer",
    access: "session",
    bet: "active",
  },
  {
    method: "POST",
    route: "/api/bets/:id/rule",
    access: "session",
    fields: ["winnerId", "outcome"],
    bet: "active",
  },
  {
    method: "POST",
    route: "/api/bets/:id/nudge",
    access: "session",
    bet: "settled",
  },
  // Talk on a bet (docs/api.md#messages).
  {
    method: "GET",
    route: "/api/bets/:id/messages",
    access: "session",
    bet: "active",
  },
  {
    method: "POST",
    route: "/api/bets/:id/messages",
    access: "session",
    fields: ["body"],
    bet: "active",
    multipart: true,
  },
  {
    method: "DELETE",
    route: "/api/bets/:id/messages/:messageId",
    access: "session",
    bet: "active",
  },
  {
    method: "GET",
    route: "/api/bets/:id/messages/:messageId/photos/:photoId",
    access: "session",
    bet: "active",
  },
  {
    method: "POST",
    route: "/api/create-payment-intent",
    access: "session",
    fields: ["betId"],
  },
  {
    method: "POST",
    route: "/api/payments/demo/confirm",
    access: "session",
    fields: ["paymentIntentId", "cardNumber", "expiry", "cvc"],
  },
  {
    method: "POST",
    route: "/api/bets/:id/record-payment",
    access: "session",
    fields: ["paymentIntentId", "amount"],
    bet: "settled",
  },
  { method: "GET", route: "/api/friends", access: "session" },
  { method: "GET", route: "/api/friend-requests", access: "session" },
  {
    method: "POST",
    route: "/api/friends",
    access: "session",
    fields: ["friendId"],
  },
  ...(["accept", "decline"] as const).map((decision): ApiCall => ({
    method: "POST",
    route: "/api/friends/:decision",
    path: `/api/friends/${decision}`,
    access: "session",
    fields: ["friendId"],
  })),
  {
    method: "GET",
    route: "/api/financial-history",
    path: "/api/financial-history?startDate=2020-01-01&endDate=2020-12-31",
    access: "session",
  },
  {
    method: "GET",
    route: "/api/financial-history.csv",
    path: "/api/financial-history.csv?startDate=2020-01-01&endDate=2020-12-31",
    access: "session",
  },
  { method: "GET", route: "/api/activity", access: "session" },
  { method: "POST", route: "/api/activity/read", access: "session" },
  // Live pages (docs/api.md#live-events).
  { method: "GET", route: "/api/events", access: "session", stream: true },
  // Heard outside the app (docs/api.md).
  {
    method: "GET",
    route: "/api/user/notification-preferences",
    access: "session",
  },
  {
    method: "PUT",
    route: "/api/user/notification-preferences",
    access: "session",
    fields: ["email", "push"],
  },
  { method: "GET", route: "/api/push/public-key", access: "public" },
  {
    method: "POST",
    route: "/api/push-subscriptions",
    access: "session",
    fields: ["endpoint", "keys"],
  },
  {
    method: "DELETE",
    route: "/api/push-subscriptions",
    access: "session",
  },
  {
    method: "POST",
    route: "/api/verify-email",
    access: "public",
    fields: ["token"],
  },
  { method: "POST", route: "/api/verify-email/resend", access: "session" },
  // Getting back in and looking after the account (docs/product-rules.md#accounts).
  {
    method: "POST",
    route: "/api/password-reset",
    access: "public",
    fields: ["login"],
  },
  {
    method: "POST",
    route: "/api/password-reset/confirm",
    access: "public",
    fields: ["token", "password"],
  },
  {
    method: "POST",
    route: "/api/user/password",
    access: "session",
    fields: ["currentPassword", "newPassword"],
  },
  { method: "GET", route: "/api/user/sessions", access: "session" },
  {
    method: "DELETE",
    route: "/api/user/sessions/:id",
    path: "/api/user/sessions/0123456789abcdef0123456789abcdef",
    access: "session",
  },
  {
    method: "POST",
    route: "/api/user/sessions/revoke-others",
    access: "session",
  },
  // Passkeys (docs/api.md#passkeys): an id that is nobody's here.
  { method: "GET", route: "/api/user/passkeys", access: "session" },
  {
    method: "POST",
    route: "/api/user/passkeys/options",
    access: "session",
    fields: ["password"],
  },
  {
    method: "POST",
    route: "/api/user/passkeys",
    access: "session",
    fields: ["response", "name"],
  },
  {
    method: "PATCH",
    route: "/api/user/passkeys/:id",
    path: "/api/user/passkeys/987654321",
    access: "session",
    fields: ["name"],
  },
  {
    method: "DELETE",
    route: "/api/user/passkeys/:id",
    path: "/api/user/passkeys/987654321",
    access: "session",
  },
  { method: "POST", route: "/api/passkeys/sign-in/options", access: "public" },
  {
    method: "POST",
    route: "/api/passkeys/sign-in",
    access: "public",
    fields: ["response", "returnTo"],
  },
  // A mail provider's one-click POST: a signed token, no session, no JSON
  // (docs/product-rules.md#notifications). The GET is the page the mail's link opens.
  {
    method: "GET",
    route: "/api/unsubscribe",
    path: "/api/unsubscribe?token=x",
    access: "public",
  },
  {
    method: "POST",
    route: "/api/unsubscribe",
    path: "/api/unsubscribe?token=x",
    access: "public",
    rawBody: true,
  },
  // Not in docs/api.md's table: Stripe calls it, signed, never a person (docs/product-rules.md#paying).
  {
    method: "POST",
    route: "/api/stripe/webhook",
    access: "public",
    rawBody: true,
  },
];

export const WRITE_METHODS = new Set<Method>(["POST", "PUT", "PATCH"]);

/**
 * The API calls whose route exists in app/routes.ts. Rows of docs/api.md whose
 * route has not landed yet are left out (and listed by `missingApiRoutes`).
 */
export function presentApiCalls(appRoutes = listAppRoutes()): ApiCall[] {
  const present = new Set(appRoutes.map((r) => r.path));
  return API_CALLS.filter((c) => present.has(c.route));
}

/** routes.ts API routes with no row in API_CALLS: each must fail a test. */
export function apiRoutesWithoutRow(appRoutes = listAppRoutes()): string[] {
  const covered = new Set(API_CALLS.map((c) => c.route));
  return appRoutes
    .filter((r) => r.api && !covered.has(r.path))
    .map((r) => r.path);
}

/** Rows of API_CALLS whose route is not (yet) in routes.ts. */
export function missingApiRoutes(appRoutes = listAppRoutes()): string[] {
  const present = new Set(appRoutes.map((r) => r.path));
  return [...new Set(API_CALLS.map((c) => c.route))].filter(
    (r) => !present.has(r),
  );
}

/** Fills a route pattern's params. */
export function fillPath(
  pattern: string,
  values: { id?: number | string; code?: string; userId?: number | string },
): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value =
      name === "code"
        ? values.code
        : name === "userId"
          ? values.userId
          : values.id;
    if (value === undefined) throw new Error(`no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}
