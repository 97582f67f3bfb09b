// People and getting in: users, sessions, avatars, mailed single-use links.
import { sql } from "drizzle-orm";
import {
  blob,
  check,
  index,
  integer,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import type { Currency } from "../../domain/currency";
import type { Language } from "../../domain/language";

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    /**
     * The username's confusable skeleton (Unicode TR39, case-folded): two
     * names that look alike have the same one. Null only for rows written
     * before it existed, until start-up fills them in.
     */
    usernameSkeleton: text("username_skeleton"),
    email: text("email").notNull(),
    /** Notification mail goes only to a verified address (docs/product-rules.md#notifications). */
    emailVerified: integer("email_verified", { mode: "boolean" })
      .notNull()
      .default(false),
    /**
     * The last address a link proved the person reads. While a new address
     * waits for its link, reset mail goes here (docs/decisions/0970-demo-outbox-per-browser.md).
     */
    verifiedEmail: text("verified_email"),
    passwordHash: text("password_hash").notNull(),
    avatarUrl: text("avatar_url"),
    /** A new bet's currency unless they pick another; first guessed at sign-up (docs/product-rules.md#currencies). */
    currency: text("currency").$type<Currency>().notNull().default("USD"),
    /**
     * Their pages', emails' and pushes' language, saved at sign-up and at each
     * pick; null for accounts older than languages (docs/product-rules.md#languages).
     */
    language: text("language").$type<Language>(),
    winCount: integer("win_count").notNull().default(0),
    lossCount: integer("loss_count").notNull().default(0),
    applePayConnected: integer("apple_pay_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    googleWalletConnected: integer("google_wallet_connected", {
      mode: "boolean",
    })
      .notNull()
      .default(false),
    paypalConnected: integer("paypal_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    venmoConnected: integer("venmo_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    zelleConnected: integer("zelle_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    cardConnected: integer("card_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    createdAt: createdAt(),
    /**
     * Set when the account was closed (docs/product-rules.md#your-data): the row stays, anonymised
     * (`deleted-{id}`, no email, no password), because bets, settlements and
     * ledger entries are the other side's history too.
     */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // Usernames and emails are unique regardless of letter case.
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    // No name may pass for another: look-alikes share a skeleton.
    uniqueIndex("users_username_skeleton_unique").on(t.usernameSkeleton),
    check(
      "users_counts_non_negative",
      sql`${t.winCount} >= 0 AND ${t.lossCount} >= 0`,
    ),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the random token in the cookie: a leaked database does not
    // hand out live sessions.
    idHash: text("id_hash").primaryKey(),
    /**
     * The session's name on the security page and in
     * `DELETE /api/user/sessions/{id}`: random, unrelated to the token, so
     * showing it gives nothing away.
     */
    publicId: text("public_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The browser's User-Agent at sign-in, to tell devices apart (docs/product-rules.md#accounts). */
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    /** Refreshed at most every few minutes, not on every request. */
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("sessions_public_id_unique").on(t.publicId),
    index("sessions_user_idx").on(t.userId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

export const avatars = sqliteTable("avatars", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  contentType: text("content_type").notNull(),
  data: blob("data", { mode: "buffer" }).notNull(),
  etag: text("etag").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

// Single-use links sent by mail (verification now, password reset later):
// only the token's SHA-256 is stored, so a copied database opens nothing.
export const emailTokens = sqliteTable(
  "email_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", {
      enum: ["verify_email", "reset_password"],
    }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address the link was sent to: a later email change voids it. */
    email: text("email").notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    usedAt: integer("used_at", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("email_tokens_hash").on(t.tokenHash)],
);

// Every change of address, kept for the cap of EMAIL_CHANGES_PER_HOUR: the
// count lives in the database so every process and machine sees one count.
export const emailChanges = sqliteTable(
  "email_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("email_changes_user_idx").on(t.userId, t.createdAt)],
);

// Passkeys (docs/product-rules.md#passkeys): a WebAuthn credential beside the
// password. The credential id is unique across every account: a passkey is
// never shared between two. At most 10 a person (the model holds the count).
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The authenticator's credential id, base64url. */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key the authenticator handed over at registration. */
    publicKey: blob("public_key", { mode: "buffer" }).notNull(),
    /** The last signature counter seen; one that goes backwards is refused. */
    signCount: integer("sign_count", { mode: "number" }).notNull().default(0),
    /** The transports the browser reported (JSON list), a hint for sign-in. */
    transports: text("transports"),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("passkeys_credential_id_unique").on(t.credentialId),
    index("passkeys_user_idx").on(t.userId),
  ],
);

// WebAuthn challenges: random, single use (deleted as they are used), bound
// to the browser that asked by a signed cookie naming the row, and alive
// five minutes (PASSKEY_CHALLENGE_TTL_S shortens it in tests). In the
// database, so every process and machine sees the same one.
export const passkeyChallenges = sqliteTable(
  "passkey_challenges",
  {
    /** The random id in the browser's signed cookie. */
    id: text("id").primaryKey(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose", { enum: ["register", "sign_in"] }).notNull(),
    /** Who is adding a passkey; null for a sign-in. */
    userId: integer("user_id").references(() => users.id, {
      onDelete: "cascade",
    }),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("passkey_challenges_expires_idx").on(t.expiresAt)],
);

export type User = typeof users.$inferSelect;
