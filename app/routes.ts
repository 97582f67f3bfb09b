// The route table, written out to mirror the screens in docs/product-rules.md#screens, then the
// resources (avatars, health check) and the JSON API of docs/api.md.
import {
  type RouteConfig,
  index,
  layout,
  prefix,
  route,
} from "@react-router/dev/routes";
import { API_PREFIX, SIGNED_API_ROUTES } from "./route-paths";
import { benchBareOn } from "./utils/env-settings.server";

export default [
  // /auth — public, no JavaScript (docs/product-rules.md#forms-and-messages); a signed-in user goes to /.
  route("auth", "routes/auth/auth.tsx"),

  // Protected screens inside the app shell (header + bottom navigation).
  layout("routes/app-layout.tsx", [
    index("routes/home.tsx"),
    route("search", "routes/bets/search.tsx"),
    route("create-bet", "routes/bets/create-bet.tsx"),
    route("my-bets", "routes/bets/my-bets.tsx"),
    route("notifications", "routes/notifications/notifications.tsx"),
    route("profile", "routes/profile/profile.tsx"),
    route("profile/edit", "routes/profile/edit.tsx"),
    route("profile/notifications", "routes/profile/notifications.tsx"),
    route("profile/data", "routes/profile/data.tsx"),
    route("profile/security", "routes/profile/security.tsx"),
    route("friends", "routes/friends/friends.tsx"),
    route("financial-history", "routes/payments/financial-history.tsx"),
    route("bet/:id", "routes/bets/bet-detail.tsx"),
    // Both path shapes are one screen (docs/product-rules.md#screens).
    route("bet/:id/edit", "routes/bets/edit-bet.tsx"),
    route("edit-bet/:id", "routes/bets/edit-bet.tsx", { id: "edit-bet-alias" }),
    route("settle-bet/:id", "routes/settlements/settle-bet.tsx"),
    route("bet/:id/rule", "routes/settlements/rule.tsx"),
    route("propose-settlement/:id", "routes/settlements/propose.tsx"),
    route("settlements/:id/approve", "routes/settlements/approve.tsx"),
    route("settlements/:id/reject", "routes/settlements/reject.tsx"),
    route("payment/:id", "routes/payments/payment.tsx"),
    route("checkout/:id", "routes/payments/checkout.tsx"),
  ]),

  // /bets/{id} → 301 /bet/{id} (docs/product-rules.md#screens).
  route("bets/:id", "routes/bets/bets-redirect.ts"),
  // Public, no JavaScript (docs/product-rules.md#forms-and-messages).
  route("join/:code", "routes/bets/join.tsx"),
  route("share/:id", "routes/bets/share.tsx"),
  route("help/fees", "routes/help/fees.tsx"),
  route("help", "routes/help/help.tsx"),
  route("verify-email", "routes/auth/verify-email.tsx"),
  // Getting back in (docs/product-rules.md#accounts): public, no JavaScript, like /auth.
  route("forgot-password", "routes/auth/forgot-password.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  // Demo mode only (404 otherwise): the mail a demo would have sent.
  route("demo/outbox", "routes/demo/outbox.tsx"),

  // Resources.
  route("logout", "routes/auth/logout.tsx"),
  // The language picker's form (docs/product-rules.md#languages).
  route("language", "routes/language.tsx"),
  route("avatars/:userId", "routes/avatars.ts"),
  route("healthz", "routes/healthz.ts"),
  // A page's messages, named by the root's data (docs/product-rules.md#languages).
  route("messages/:language/:file", "routes/messages-file.ts"),
  // The bench's yardstick page is no part of the product: it is in the
  // table only of a build made with BENCH_BARE=1 (`npm run bench` makes one).
  ...(benchBareOn() ? [route("bench/bare", "routes/bench/bare.tsx")] : []),

  // The JSON API (docs/api.md).
  ...prefix(API_PREFIX, [
    // Accounts
    route("user", "routes/api/user.ts"),
    route("user/export", "routes/api/user-export.ts"),
    route("login", "routes/api/login.ts"),
    route("register", "routes/api/register.ts"),
    route("logout", "routes/api/logout.ts"),
    route("user/profile", "routes/api/social/user-profile.ts"),
    route("user/payment-methods", "routes/api/social/user-payment-methods.ts"),
    route("users/search", "routes/api/social/users-search.ts"),
    route("users/:id", "routes/api/users-id.ts"),
    // Bets
    route("bets", "routes/api/bets/index.ts"),
    route("bets/:id", "routes/api/bets/bet.ts"),
    route("bets/code/:code", "routes/api/bets/code.ts"),
    route("bets/:id/join", "routes/api/bets/join.ts"),
    route("bets/:id/share-meta", "routes/api/bets/share-meta.ts"),
    route("bets/:id/share-image", "routes/api/bets/share-image.ts"),
    route("user/bets/:kind", "routes/api/bets/user-bets.ts"),
    // Settlement and payment
    route("settlements/:id", "routes/api/settlements/settlement.ts"),
    route("settlements/:id/approve", "routes/api/settlements/approve.ts"),
    route("settlements/:id/reject", "routes/api/settlements/reject.ts"),
    route("bets/:id/propose-settlement", "routes/api/settlements/propose.ts"),
    route("bets/:id/settle", "routes/api/settlements/settle.ts"),
    // Fair to the end (docs/api.md)
    route("bets/:id/refer", "routes/api/fair/refer.ts"),
    route("bets/:id/rule", "routes/api/fair/rule.ts"),
    route("bets/:id/nudge", "routes/api/fair/nudge.ts"),
    // Talk on a bet (docs/api.md#messages)
    route("bets/:id/messages", "routes/api/messages/bet-messages.ts"),
    route("bets/:id/messages/:messageId", "routes/api/messages/bet-message.ts"),
    route(
      "bets/:id/messages/:messageId/photos/:photoId",
      "routes/api/messages/bet-message-photo.ts",
    ),
    route("create-payment-intent", "routes/api/payments/create-intent.ts"),
    route("payments/demo/confirm", "routes/api/payments/demo-confirm.ts"),
    route("bets/:id/record-payment", "routes/api/payments/record.ts"),
    route(
      SIGNED_API_ROUTES.stripeWebhook,
      "routes/api/payments/stripe-webhook.ts",
    ),
    route("financial-history", "routes/api/payments/financial-history.ts"),
    route(
      "financial-history.csv",
      "routes/api/payments/financial-history-csv.ts",
    ),
    // Friends and activity
    route("friends", "routes/api/social/friends.ts"),
    route("friends/:decision", "routes/api/social/friend-respond.ts"),
    route("friend-requests", "routes/api/social/friend-requests.ts"),
    route("activity", "routes/api/social/activity.ts"),
    route("activity/read", "routes/api/social/activity-read.ts"),
    // Live pages: what changed, as Server-Sent Events (docs/api.md)
    route("events", "routes/api/events.ts"),
    // Heard outside the app (docs/api.md)
    route(
      "user/notification-preferences",
      "routes/api/notifications/preferences.ts",
    ),
    route("push/public-key", "routes/api/notifications/push-key.ts"),
    route(
      "push-subscriptions",
      "routes/api/notifications/push-subscriptions.ts",
    ),
    route(
      SIGNED_API_ROUTES.unsubscribe,
      "routes/api/notifications/unsubscribe.ts",
    ),
    route("verify-email", "routes/api/verify-email.ts"),
    route("verify-email/resend", "routes/api/verify-email-resend.ts"),
    // Accounts you can get back into and look after (docs/product-rules.md#accounts)
    route("password-reset", "routes/api/account/password-reset.ts"),
    route(
      "password-reset/confirm",
      "routes/api/account/password-reset-confirm.ts",
    ),
    route("user/password", "routes/api/account/user-password.ts"),
    route("user/sessions", "routes/api/account/user-sessions.ts"),
    route(
      "user/sessions/revoke-others",
      "routes/api/account/user-sessions-revoke-others.ts",
    ),
    route("user/sessions/:id", "routes/api/account/user-session.ts"),
    // Passkeys (docs/product-rules.md#passkeys)
    route("user/passkeys", "routes/api/account/user-passkeys.ts"),
    route(
      "user/passkeys/options",
      "routes/api/account/user-passkeys-options.ts",
    ),
    route("user/passkeys/:id", "routes/api/account/user-passkey.ts"),
    route("passkeys/sign-in/options", "routes/api/passkeys/sign-in-options.ts"),
    route("passkeys/sign-in", "routes/api/passkeys/sign-in.ts"),
    // Unknown /api paths answer JSON.
    route("*", "routes/api/not-found.ts"),
  ]),

  // Any other path: '404 Page Not Found'.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
