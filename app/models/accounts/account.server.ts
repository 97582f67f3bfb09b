// Your data (docs/product-rules.md#your-data): closing the account (the export is in
// app/models/cross-domain/account-export.server.ts). Closing anonymises the row rather than deleting it: bets,
// settlements, payments and ledger entries are the other side's history too
// (docs/decisions/0910-your-data.md).
import { and, asc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";
import { changedRows, selectRows } from "~/db/dialect.server";
import {
  activityEvents,
  avatars,
  betAccess,
  betMessagePhotos,
  betMessages,
  betParticipants,
  bets,
  demoMails,
  emailTokens,
  friendships,
  idempotencyKeys,
  notificationOptOuts,
  pushSubscriptions,
  sessions,
  settlements,
  users,
  type User,
} from "~/db/schema";
import {
  DELETED_USER_NAME,
  DELETED_USERNAME_PREFIX,
} from "~/domain/deleted-user";
import { conflict, DomainError, invalid } from "~/utils/errors";
import { deletePasskeysOf } from "./passkeys.server";
import {
  CLOSED_ACCOUNT_HASH,
  getUserById,
  passwordMatches,
} from "./user.server";

export const OPEN_BETS = "Finish, cancel or pay your open bets first." as const;
export const WRONG_PASSWORD = "Password is incorrect";

// --- What "open" means ----------------------------------------------------------

/**
 * The bets that keep `userId` from closing the account, or [] when none do:
 * a pending bet still open to a join (its deadline not passed) or an active
 * one (with or without a live proposal or a referred dispute) that they are
 * in or referee; and a settled bet with a winner still unpaid, on either
 * side — the loser owes, and the winner is the one the money is owed to.
 * One rule, one place: the page asks it to explain, the transaction asks it
 * to refuse.
 */
export async function openBetsOf(
  userId: number,
  now = Date.now(),
  tx: Tx | typeof db = db,
): Promise<number[]> {
  const rows = await selectRows<{ id: number }>(
    tx,
    sql`
    SELECT b.id AS id FROM ${bets} b
    WHERE (
      (b.status = 'active' OR (b.status = 'pending' AND b.deadline > ${now}))
      AND (
        b.referee_id = ${userId}
        OR EXISTS (SELECT 1 FROM ${betParticipants} p
                   WHERE p.bet_id = b.id AND p.user_id = ${userId})
      )
    ) OR (
      b.status = 'settled'
      AND EXISTS (SELECT 1 FROM ${settlements} s
                  WHERE s.bet_id = b.id AND s.outcome = 'winner'
                    AND s.payment_status = 'pending'
                    AND (s.winner_id = ${userId} OR s.loser_id = ${userId}))
    )
    ORDER BY b.id`,
  );
  return rows.map((r) => r.id);
}

/** The open bets with their titles, for the page that explains a refusal. */
export async function listOpenBets(userId: number, now = Date.now()) {
  const ids = await openBetsOf(userId, now);
  if (ids.length === 0) return [];
  return await db
    .select({ id: bets.id, title: bets.title })
    .from(bets)
    .where(inArray(bets.id, ids))
    .orderBy(asc(bets.id));
}

// --- Closing the account ----------------------------------------------------------

const CloseAccountSchema = z.object({
  password: z
    .string({ error: "Password is required" })
    .min(1, "Password is required")
    .max(200, WRONG_PASSWORD),
});

/** The placeholder address of a closed account: unique, never deliverable (RFC 2606). */
export const closedEmail = (userId: number) =>
  `${DELETED_USERNAME_PREFIX}${userId}@deleted.invalid`;

/**
 * Closes `userId`'s account: 400 with `fieldErrors.password` for a wrong
 * password, 409 OPEN_BETS while a bet is open. Otherwise, in one immediate
 * transaction that re-checks the open bets (so a join or a proposal cannot
 * slip in between), the row is anonymised and everything personal removed.
 */
export async function closeAccount({
  userId,
  input,
  now = Date.now(),
}: {
  userId: number;
  input: unknown;
  now?: number;
}): Promise<void> {
  const parsed = CloseAccountSchema.safeParse(input);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? WRONG_PASSWORD;
    throw invalid(message, { password: [message] });
  }
  const user = await getUserById(userId);
  if (!user || user.deletedAt)
    throw new DomainError(401, "Authentication required");
  if (!(await passwordMatches(user, parsed.data.password)))
    throw invalid(WRONG_PASSWORD, { password: [WRONG_PASSWORD] });
  await immediate(
    async (tx) => {
      if ((await openBetsOf(userId, now, tx)).length > 0)
        throw conflict(OPEN_BETS);
      await anonymise(tx, user, now);
    },
    { moneyOrMembership: true },
  );
}

async function anonymise(tx: Tx, user: User, now: number) {
  const userId = user.id;
  let username = `${DELETED_USERNAME_PREFIX}${userId}`;
  // An account named so before the prefix was reserved keeps its name.
  const squatter = (
    await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${username}`)
      .limit(1)
  )[0];
  if (squatter && squatter.id !== userId) username += `-${now.toString(36)}`;
  const closed = await tx
    .update(users)
    .set({
      username,
      usernameSkeleton: null,
      email: closedEmail(userId),
      emailVerified: false,
      verifiedEmail: null,
      passwordHash: CLOSED_ACCOUNT_HASH,
      avatarUrl: null,
      applePayConnected: false,
      googleWalletConnected: false,
      paypalConnected: false,
      venmoConnected: false,
      zelleConnected: false,
      cardConnected: false,
      deletedAt: new Date(now),
    })
    // Conditional: the password verified is still the password, and the
    // account is not already closed.
    .where(
      and(
        eq(users.id, userId),
        eq(users.passwordHash, user.passwordHash),
        isNull(users.deletedAt),
      ),
    );
  if (changedRows(closed) !== 1)
    throw new DomainError(401, "Authentication required");
  await tx.delete(avatars).where(eq(avatars.userId, userId));
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  await tx
    .delete(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  await tx
    .delete(notificationOptOuts)
    .where(eq(notificationOptOuts.userId, userId));
  await tx.delete(emailTokens).where(eq(emailTokens.userId, userId));
  await deletePasskeysOf(tx, userId);
  // Their messages on bets keep their places and lose their words and
  // photos (docs/product-rules.md#messages): each reads 'Message deleted'.
  await tx
    .delete(betMessagePhotos)
    .where(
      inArray(
        betMessagePhotos.messageId,
        tx
          .select({ id: betMessages.id })
          .from(betMessages)
          .where(eq(betMessages.authorId, userId)),
      ),
    );
  await tx
    .update(betMessages)
    .set({ body: "", deletedAt: new Date(now) })
    .where(
      and(eq(betMessages.authorId, userId), isNull(betMessages.deletedAt)),
    );
  // Kept answers hold what the person sent and saw (their email, their
  // bets). Only a request still running keeps its claim: this one's own,
  // whose answer names no one.
  await tx
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        ne(idempotencyKeys.state, "running"),
      ),
    );
  await tx
    .delete(friendships)
    .where(
      or(
        eq(friendships.requesterId, userId),
        eq(friendships.addresseeId, userId),
      ),
    );
  await tx.delete(betAccess).where(eq(betAccess.userId, userId));
  // Their own notifications go, and with them (cascade) every delivery still
  // waiting in the outbox for them.
  await tx.delete(activityEvents).where(eq(activityEvents.userId, userId));
  // Other people's activity keeps its events but no longer names them: the
  // events they caused, and those of the bets they were in. Messages name a
  // person as a whole word outside the quoted bet title.
  const named = new RegExp(
    `(?<=^|\\s)${escapeRegExp(user.username)}(?=\\s)`,
    "gu",
  );
  const mentions = await tx
    .select({ id: activityEvents.id, message: activityEvents.message })
    .from(activityEvents)
    .where(
      or(
        eq(activityEvents.actorId, userId),
        sql`${activityEvents.betId} IN (SELECT bet_id FROM ${betParticipants} WHERE user_id = ${userId})`,
        sql`${activityEvents.betId} IN (SELECT id FROM ${bets} WHERE referee_id = ${userId})`,
      ),
    );
  for (const row of mentions) {
    const message = row.message
      .split('"')
      .map((part, i) =>
        i % 2 === 0 ? part.replace(named, DELETED_USER_NAME) : part,
      )
      .join('"');
    if (message !== row.message)
      await tx
        .update(activityEvents)
        .set({ message })
        .where(eq(activityEvents.id, row.id));
  }
  await tx.delete(demoMails).where(eq(demoMails.to, user.email));
}

const escapeRegExp = (text: string) =>
  text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
