// The security page's rules (docs/product-rules.md#accounts): change the password (the current one
// required; every other session ends, this one stays) and the sessions list
// in the shape of `GET /api/user/sessions`.
import { z } from "zod";
import { immediate } from "~/db/transactions.server";
import type { User } from "~/db/schema";
import { invalid, notFound } from "~/utils/errors";
import { AbuseLimit } from "../requests/abuse-limits.server";
import { fieldErrorsOf } from "~/utils/validation";
import { sendPasswordChangedNotice } from "./password-reset.server";
import {
  listSessions,
  revokeOtherSessions,
  revokeSession,
} from "./session.server";
import {
  hashPassword,
  passwordMatches,
  writePasswordHash,
} from "./user.server";
import { NewPasswordSchema } from "./user-input.server";

export const WRONG_CURRENT_PASSWORD = "Current password is incorrect";
export const SESSION_NOT_FOUND = "Session not found";

const ChangePasswordSchema = z.object({
  currentPassword: z
    .string({ error: "Current password is required" })
    .min(1, "Current password is required"),
  newPassword: NewPasswordSchema,
});

/** Guessing the current password from a stolen session: 10 tries per 15 minutes. */
const currentPasswordTries = new AbuseLimit({
  name: "current-password-tries",
  limit: 10,
  windowMs: 15 * 60_000,
  message: "Too many attempts. Please wait a few minutes and try again.",
});

/**
 * Guards what a stolen session must not do alone (a new password, a new
 * address): 400 `fieldErrors.currentPassword` 'Current password is
 * incorrect' when it is missing or wrong; 429 past the guessing limit.
 */
export async function assertCurrentPassword(
  user: User,
  currentPassword: unknown,
) {
  await currentPasswordTries.take([`user:${user.id}`]);
  if (
    typeof currentPassword !== "string" ||
    currentPassword === "" ||
    !(await passwordMatches(user, currentPassword))
  )
    throw invalid("Please correct the highlighted fields.", {
      currentPassword: [WRONG_CURRENT_PASSWORD],
    });
}

/**
 * 400 with field errors ('Current password is incorrect', registration's
 * rules for the new one); 429 past the limit. Ends every session of the user
 * except `keepSessionId` (this browser's).
 */
export async function changePassword({
  user,
  input,
  keepSessionId,
}: {
  user: User;
  input: unknown;
  keepSessionId: string | null;
}): Promise<User> {
  const parsed = ChangePasswordSchema.safeParse(input);
  if (!parsed.success)
    throw invalid(
      "Please correct the highlighted fields.",
      fieldErrorsOf(parsed.error),
    );
  const { currentPassword, newPassword } = parsed.data;
  await assertCurrentPassword(user, currentPassword);
  const passwordHash = await hashPassword(newPassword);
  const updated = await immediate(async (tx) => {
    const row = await writePasswordHash(tx, user.id, passwordHash);
    await revokeOtherSessions(user.id, keepSessionId);
    return row;
  });
  if (!updated) throw notFound("User not found");
  sendPasswordChangedNotice(updated);
  return updated;
}

/** `GET /api/user/sessions`: where this person is signed in. */
export async function sessionsJson(userId: number, currentId: string | null) {
  return (await listSessions(userId, currentId)).map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    userAgent: s.userAgent,
    current: s.current,
  }));
}

/** Signs one of this person's sessions out; 404 for anyone else's or an unknown id. */
export async function signOutSession(userId: number, sessionId: unknown) {
  if (
    typeof sessionId !== "string" ||
    !/^[0-9a-f]{32}$/.test(sessionId) ||
    !(await revokeSession(userId, sessionId))
  )
    throw notFound(SESSION_NOT_FOUND);
}

/** "Sign out everywhere else": answers how many sessions ended. */
export async function signOutOtherSessions(
  userId: number,
  keepId: string | null,
) {
  return await revokeOtherSessions(userId, keepId);
}
