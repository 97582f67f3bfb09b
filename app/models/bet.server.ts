// Bets: create, read, join, edit, delete, lists. Every rule about who may
// see or change a bet lives here, shared by the pages and the /api routes.
import crypto from "node:crypto";
import { and, desc, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import { z } from "zod";
import { db, immediate, preparedOnce, type Tx } from "~/db/client.server";
import {
  betAccess,
  betEvents,
  betParticipants,
  bets,
  friendships,
  users,
  type Bet,
  type BetStatus,
} from "~/db/schema";
import { recordActivity } from "./activity.server";
import { assertAccountOpen } from "./closed-account.server";
import { displayNameSql } from "./display-name.server";
import { conflict, forbidden, invalid, notFound } from "~/utils/errors";
import { centsToDollars, MAX_BET_DOLLARS } from "~/utils/money";
import { fieldErrorsOf, maxChars } from "~/utils/validation";
import { assertMayTryCode, recordCodeMiss } from "./code-guesses.server";

// --- Codes ------------------------------------------------------------------

/** No 0/O, 1/I/L: a code read aloud or off a screen cannot be misread. */
export const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const CODE_LENGTH = 6;

export function generateCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++)
    code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return code;
}

export function normalizeCode(raw: string): string {
  return raw.trim().toUpperCase();
}

// --- Validation (SPEC §5 create and edit rules, ruling 3) -------------------

export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 1000;

type Mode = "create" | "edit";

const MESSAGES = {
  create: {
    title: "Title must be at least 2 characters.",
    titleMin: 2,
    description: "Description must be at least 2 characters.",
    descriptionMin: 2,
    amount: "Amount must be a positive number.",
    deadline: "Please select a deadline.",
  },
  edit: {
    title: "Title must be at least 3 characters",
    titleMin: 3,
    description: "Description must be at least 10 characters",
    descriptionMin: 10,
    amount: "Amount must be positive",
    deadline: "Invalid date format",
  },
} as const;

const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * An ISO 8601 date or date-time naming a real instant, in ms; NaN otherwise.
 * `Date.parse` rolls 2030-02-30 over to March 2: a date that does not exist
 * is refused instead.
 */
export function parseIsoInstant(text: string): number {
  const m = ISO_INSTANT.exec(text.trim());
  if (!m) return Number.NaN;
  const [, y, mo, d, h = "0", mi = "0", sec = "0", oh = "0", om = "0"] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const realDate =
    day.getUTCFullYear() === Number(y) &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d);
  if (
    !realDate ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(sec) > 59 ||
    Number(oh) > 23 ||
    Number(om) > 59
  )
    return Number.NaN;
  return Date.parse(text.trim());
}

function betInputSchema(mode: Mode) {
  const m = MESSAGES[mode];
  return z.object({
    title: z
      .string({ error: m.title })
      .trim()
      .min(m.titleMin, m.title)
      .superRefine(
        maxChars(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters.`),
      ),
    description: z
      .string({ error: m.description })
      .trim()
      .min(m.descriptionMin, m.description)
      .superRefine(
        maxChars(
          DESCRIPTION_MAX,
          "Description must be at most 1,000 characters.",
          { multiline: true },
        ),
      ),
    // A JSON number or the form's decimal string, nothing else: `true`,
    // `[5]` and "0x10" are not amounts.
    amount: z
      .union([z.number(), z.string()], { error: m.amount })
      .transform((v) =>
        typeof v === "number"
          ? v
          : DECIMAL.test(v)
            ? Number(v.trim())
            : Number.NaN,
      )
      .refine(Number.isFinite, { message: m.amount, abort: true })
      .refine((n) => n > 0, { message: m.amount, abort: true })
      .refine((n) => Number.isInteger(n), {
        message: "Amount must be a whole number of dollars.",
        abort: true,
      })
      .refine((n) => n <= MAX_BET_DOLLARS, "Amount can be at most $10,000."),
    deadline: z
      .union([z.string(), z.number(), z.date()], { error: m.deadline })
      .transform((value, ctx) => {
        const ms =
          value instanceof Date
            ? value.getTime()
            : typeof value === "number"
              ? value
              : parseIsoInstant(value);
        if (typeof value === "string" && value.trim() === "") {
          ctx.addIssue({ code: "custom", message: MESSAGES[mode].deadline });
          return z.NEVER;
        }
        if (!Number.isFinite(ms)) {
          ctx.addIssue({ code: "custom", message: m.deadline });
          return z.NEVER;
        }
        return ms;
      }),
    visibility: z.enum(["public", "private"], {
      error: "Please select visibility.",
    }),
  });
}

export type BetInput = {
  title: string;
  description: string;
  amountCents: number;
  deadline: number;
  visibility: "public" | "private";
  /** A friend of the creator (ruling 23); null clears, undefined keeps. */
  refereeId?: number | null;
};

export const REFEREE_NOT_FRIEND = "The referee must be one of your friends.";
export const REFEREE_CANNOT_JOIN = "The referee cannot join this bet.";

/** `refereeId` from JSON or a form: absent, null/"" (none) or a user id. */
export function parseRefereeId(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  const id = typeof value === "string" ? Number(value) : value;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0)
    throw invalid(REFEREE_NOT_FRIEND, { refereeId: [REFEREE_NOT_FRIEND] });
  return id;
}

function areFriends(tx: Tx | typeof db, a: number, b: number) {
  return (
    tx
      .select({ id: friendships.id })
      .from(friendships)
      .where(
        and(
          eq(friendships.status, "accepted"),
          or(
            and(eq(friendships.requesterId, a), eq(friendships.addresseeId, b)),
            and(eq(friendships.requesterId, b), eq(friendships.addresseeId, a)),
          ),
        ),
      )
      .get() !== undefined
  );
}

/** Ruling 23: a friend of the creator, never a participant (nor the creator). */
function assertReferee(tx: Tx, creatorId: number, refereeId: number) {
  if (refereeId === creatorId || !areFriends(tx, creatorId, refereeId))
    throw invalid(REFEREE_NOT_FRIEND, { refereeId: [REFEREE_NOT_FRIEND] });
}

/**
 * Validates bet fields from the API or a form (`amount` in dollars,
 * `deadline` an ISO string or epoch ms). Throws 400 with SPEC's messages.
 */
export function parseBetInput(
  input: unknown,
  mode: Mode,
  now = Date.now(),
): BetInput {
  const parsed = betInputSchema(mode).safeParse(input);
  if (!parsed.success) {
    throw invalid(
      mode === "create"
        ? "Please check your form inputs and try again"
        : "Error updating bet",
      fieldErrorsOf(parsed.error),
    );
  }
  const { title, description, amount, deadline, visibility } = parsed.data;
  const refereeId =
    input && typeof input === "object" && "refereeId" in input
      ? parseRefereeId((input as Record<string, unknown>).refereeId)
      : undefined;
  if (deadline <= now) {
    // Ruling 6: the deadline must be in the future at create and edit.
    throw invalid("Deadline must be in the future", {
      deadline: ["Deadline must be in the future"],
    });
  }
  return {
    title,
    description,
    amountCents: Math.round(amount * 100),
    deadline,
    visibility,
    ...(refereeId !== undefined ? { refereeId } : {}),
  };
}

// --- Reading ----------------------------------------------------------------

export type Participant = {
  id: number;
  username: string;
  avatarUrl: string | null;
  seat: number;
};
export type BetView = Bet & {
  participants: Participant[];
  status: BetStatus;
  creatorName: string | null;
  refereeName: string | null;
};

/** A pending bet past its deadline reads as cancelled; a read never writes. */
export function effectiveStatus(
  bet: Pick<Bet, "status" | "deadline">,
  now = Date.now(),
): BetStatus {
  return bet.status === "pending" && bet.deadline.getTime() <= now
    ? "cancelled"
    : bet.status;
}

// The per-page reads are prepared once and reused (their SQL never changes;
// only the values do): building and preparing a query costs more than running it.
const participantsOfBets = preparedOnce(() =>
  db
    .select({
      betId: betParticipants.betId,
      id: users.id,
      username: displayNameSql(),
      avatarUrl: users.avatarUrl,
      seat: betParticipants.seat,
    })
    .from(betParticipants)
    .innerJoin(users, eq(users.id, betParticipants.userId))
    .where(
      sql`${betParticipants.betId} in (select value from json_each(${sql.placeholder("ids")}))`,
    )
    .orderBy(betParticipants.seat)
    .prepare(),
);

function participantsOf(betIds: number[]): Map<number, Participant[]> {
  const map = new Map<number, Participant[]>();
  if (betIds.length === 0) return map;
  const rows = participantsOfBets().all({ ids: JSON.stringify(betIds) });
  for (const { betId, ...p } of rows) {
    const list = map.get(betId) ?? [];
    list.push(p);
    map.set(betId, list);
  }
  return map;
}

function refereeNames(rows: Bet[]): Map<number, string> {
  const ids = [
    ...new Set(rows.map((b) => b.refereeId).filter((id) => id !== null)),
  ];
  if (ids.length === 0) return new Map();
  return new Map(
    db
      .select({ id: users.id, username: displayNameSql() })
      .from(users)
      .where(inArray(users.id, ids))
      .all()
      .map((u) => [u.id, u.username]),
  );
}

function toViews(rows: Bet[], now = Date.now()): BetView[] {
  const participants = participantsOf(rows.map((b) => b.id));
  const referees = refereeNames(rows);
  return rows.map((bet) => {
    const list = participants.get(bet.id) ?? [];
    return {
      ...bet,
      status: effectiveStatus(bet, now),
      participants: list,
      creatorName: list.find((p) => p.id === bet.creatorId)?.username ?? null,
      refereeName:
        bet.refereeId === null ? null : (referees.get(bet.refereeId) ?? null),
    };
  });
}

const betById = preparedOnce(() =>
  db
    .select()
    .from(bets)
    .where(eq(bets.id, sql.placeholder("id")))
    .prepare(),
);

function findBet(betId: number): Bet | undefined {
  return betById().get({ id: betId });
}

export function getBetView(betId: number): BetView | null {
  const bet = findBet(betId);
  return bet ? toViews([bet])[0]! : null;
}

function isParticipant(betId: number, userId: number, tx: Tx | typeof db = db) {
  return (
    tx
      .select({ u: betParticipants.userId })
      .from(betParticipants)
      .where(
        and(
          eq(betParticipants.betId, betId),
          eq(betParticipants.userId, userId),
        ),
      )
      .get() !== undefined
  );
}

/**
 * Ruling 13: a private bet is seen by its participants, its referee
 * (ruling 23) and those who opened it by code.
 */
export function canViewBet(
  bet: Pick<Bet, "id" | "visibility"> & { refereeId?: number | null },
  userId: number | null,
): boolean {
  if (bet.visibility === "public") return true;
  if (userId === null) return false;
  if (bet.refereeId === userId) return true;
  if (isParticipant(bet.id, userId)) return true;
  return (
    db
      .select({ u: betAccess.userId })
      .from(betAccess)
      .where(and(eq(betAccess.betId, bet.id), eq(betAccess.userId, userId)))
      .get() !== undefined
  );
}

export const BET_NOT_FOUND = "This bet could not be found or has expired.";

/** The bet as `userId` may see it; a private bet without access is a 404. */
export function getBetForViewer({
  betId,
  userId,
}: {
  betId: number;
  userId: number | null;
}): BetView {
  const view = getBetView(betId);
  if (!view || !canViewBet(view, userId)) throw notFound(BET_NOT_FOUND);
  return view;
}

export function findBetByCode(code: string): Bet | null {
  const normalized = normalizeCode(code);
  if (normalized.length !== CODE_LENGTH) return null;
  return db.select().from(bets).where(eq(bets.code, normalized)).get() ?? null;
}

/**
 * Opening a bet by its code (/join/{code}, the code search, a share link
 * with ?code=) grants access to a private bet from then on.
 */
export function openBetByCode({
  code,
  userId,
  clientAddress,
}: {
  code: string;
  userId: number;
  clientAddress: string;
}): BetView {
  const guesser = { userId, clientAddress };
  assertMayTryCode(guesser);
  const bet = findBetByCode(code);
  if (!bet) {
    recordCodeMiss(guesser);
    throw notFound("No bet found with that code. Please check and try again.");
  }
  if (bet.visibility === "private") {
    db.insert(betAccess)
      .values({ betId: bet.id, userId })
      .onConflictDoNothing()
      .run();
  }
  return toViews([bet])[0]!;
}

/** A share link's `?code=` unlocks a private bet for whoever holds the link. */
export function codeMatches(
  bet: Pick<Bet, "code">,
  code: string | null | undefined,
) {
  return typeof code === "string" && normalizeCode(code) === bet.code;
}

// --- Creating ---------------------------------------------------------------

export function createBet({
  creatorId,
  input,
}: {
  creatorId: number;
  input: BetInput;
}): Bet {
  for (let attempt = 0; attempt < 10; attempt++) {
    const code = generateCode();
    try {
      return immediate((tx) => {
        const now = new Date();
        assertAccountOpen(tx, creatorId);
        if (input.refereeId) assertReferee(tx, creatorId, input.refereeId);
        const bet = tx
          .insert(bets)
          .values({
            code,
            title: input.title,
            description: input.description,
            amountCents: input.amountCents,
            visibility: input.visibility,
            deadline: new Date(input.deadline),
            creatorId,
            refereeId: input.refereeId ?? null,
            status: "pending",
            updatedAt: now,
          })
          .returning()
          .get();
        tx.insert(betParticipants)
          .values({ betId: bet.id, userId: creatorId, seat: 1 })
          .run();
        tx.insert(betEvents)
          .values({ betId: bet.id, actorId: creatorId, type: "created" })
          .run();
        return bet;
      });
    } catch (error) {
      if (String(error).includes("bets.code")) continue; // a code collision: draw again
      throw error;
    }
  }
  throw new Error("Could not draw a unique bet code");
}

// --- Joining ----------------------------------------------------------------

export const BET_FULL = "Bet already has the maximum number of participants.";
export const BET_CHANGED =
  "This bet changed while you were looking. Please review it again.";

/**
 * Joins a bet as its second participant, in one immediate transaction with a
 * conditional update: of any number of simultaneous joins exactly one wins.
 */
export function joinBet({
  betId,
  userId,
  version,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  version?: number | null;
  now?: number;
}) {
  return immediate((tx) => {
    assertAccountOpen(tx, userId);
    const bet = tx.select().from(bets).where(eq(bets.id, betId)).get();
    if (!bet || !canViewBet(bet, userId)) throw notFound(BET_NOT_FOUND);
    if (isParticipant(betId, userId, tx))
      throw conflict("You have already joined this bet.");
    if (bet.refereeId === userId) throw conflict(REFEREE_CANNOT_JOIN);
    const status = effectiveStatus(bet, now);
    if (status === "cancelled")
      throw conflict(
        "This bet has been cancelled: its deadline passed before anyone joined.",
      );
    if (status === "settled")
      throw conflict("This bet has already been settled.");
    if (status !== "pending") throw conflict(BET_FULL);
    if (
      version !== undefined &&
      version !== null &&
      version !== bet.updatedAt.getTime()
    )
      throw conflict(BET_CHANGED);

    const updated = tx
      .update(bets)
      .set({
        status: "active",
        updatedAt: new Date(Math.max(now, bet.updatedAt.getTime() + 1)),
      })
      .where(
        and(
          eq(bets.id, betId),
          eq(bets.status, "pending"),
          gt(bets.deadline, new Date(now)),
        ),
      )
      .run();
    if (updated.changes !== 1) throw conflict(BET_FULL);
    tx.insert(betParticipants).values({ betId, userId, seat: 2 }).run();
    tx.insert(betEvents)
      .values({ betId, actorId: userId, type: "joined" })
      .run();
    const joiner = tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, userId))
      .get();
    recordActivity(tx, {
      userId: bet.creatorId,
      actorId: userId,
      type: "bet_joined",
      message: `${joiner?.username ?? "Someone"} joined your bet "${bet.title}"`,
      betId,
    });
    return getBetViewTx(tx, betId);
  });
}

function getBetViewTx(tx: Tx, betId: number): BetView {
  const bet = tx.select().from(bets).where(eq(bets.id, betId)).get()!;
  return toViews([bet])[0]!;
}

// --- Editing and deleting ----------------------------------------------------

/** Creator only, still pending, nobody else in (SPEC §6). */
function assertEditable(
  tx: Tx,
  betId: number,
  userId: number,
  now: number,
  verb: "edit" | "delete",
) {
  const bet = tx.select().from(bets).where(eq(bets.id, betId)).get();
  if (!bet || !canViewBet(bet, userId)) throw notFound(BET_NOT_FOUND);
  if (bet.creatorId !== userId) {
    throw forbidden(
      verb === "edit"
        ? "You can only edit bets you've created."
        : "You can only delete bets you've created.",
      "Access denied",
    );
  }
  if (effectiveStatus(bet, now) !== "pending") {
    throw conflict(
      verb === "edit"
        ? "You can only edit bets that are still pending."
        : "You can only delete bets that are still pending.",
      "Cannot edit",
    );
  }
  const others = tx
    .select({ n: sql<number>`count(*)` })
    .from(betParticipants)
    .where(
      and(
        eq(betParticipants.betId, betId),
        sql`${betParticipants.userId} <> ${userId}`,
      ),
    )
    .get();
  if ((others?.n ?? 0) > 0) {
    throw conflict(
      verb === "edit"
        ? "You cannot edit a bet that has been joined by others."
        : "You cannot delete a bet that has been joined by others.",
      "Cannot edit",
    );
  }
  return bet;
}

const untouchedByOthers = (betId: number) =>
  sql`NOT EXISTS (SELECT 1 FROM ${betParticipants} WHERE ${betParticipants.betId} = ${betId} AND ${betParticipants.seat} = 2)`;

/** The conditional-update guard: pending and nobody else in, at commit time. */
const stillEditable = (betId: number) =>
  and(eq(bets.id, betId), eq(bets.status, "pending"), untouchedByOthers(betId));

export function updateBet({
  betId,
  userId,
  input,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  input: BetInput;
  now?: number;
}) {
  return immediate((tx) => {
    const bet = assertEditable(tx, betId, userId, now, "edit");
    if (input.refereeId) assertReferee(tx, userId, input.refereeId);
    const result = tx
      .update(bets)
      .set({
        title: input.title,
        description: input.description,
        amountCents: input.amountCents,
        deadline: new Date(input.deadline),
        visibility: input.visibility,
        ...(input.refereeId !== undefined
          ? { refereeId: input.refereeId }
          : {}),
        // Strictly increasing, so a join that saw the old terms is refused.
        updatedAt: new Date(Math.max(now, bet.updatedAt.getTime() + 1)),
      })
      .where(stillEditable(betId))
      .run();
    if (result.changes !== 1)
      throw conflict(
        "You cannot edit a bet that has been joined by others.",
        "Cannot edit",
      );
    tx.insert(betEvents)
      .values({
        betId,
        actorId: userId,
        type: "edited",
        data: { before: { title: bet.title, amountCents: bet.amountCents } },
      })
      .run();
    return getBetViewTx(tx, betId);
  });
}

export function deleteBet({
  betId,
  userId,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  now?: number;
}) {
  immediate((tx) => {
    assertEditable(tx, betId, userId, now, "delete");
    const result = tx.delete(bets).where(stillEditable(betId)).run();
    if (result.changes !== 1)
      throw conflict(
        "You cannot delete a bet that has been joined by others.",
        "Cannot edit",
      );
  });
}

// --- Lists ------------------------------------------------------------------

export const PUBLIC_FEED_LIMIT = 50;

/** Public, pending, still open, newest first (DESIGN §3a). Never a private bet. */
export function listPublicBets(
  now = Date.now(),
  limit = PUBLIC_FEED_LIMIT,
): BetView[] {
  const rows = db
    .select()
    .from(bets)
    .where(
      and(
        eq(bets.visibility, "public"),
        eq(bets.status, "pending"),
        gt(bets.deadline, new Date(now)),
      ),
    )
    .orderBy(desc(bets.createdAt), desc(bets.id))
    .limit(limit)
    .all();
  return toViews(rows, now);
}

export type BetListKind = "created" | "joined" | "completed";

/**
 * Ruling 5: created = bets I created, joined = bets I joined second, both
 * pending or active; completed = settled bets I am in.
 */
const myBetIds = (seat?: number) =>
  db
    .select({ betId: betParticipants.betId })
    .from(betParticipants)
    .where(
      and(
        eq(betParticipants.userId, sql.placeholder("userId")),
        seat === undefined ? sql`1` : eq(betParticipants.seat, seat),
      ),
    );
const openAt = () =>
  or(
    and(eq(bets.status, "pending"), gt(bets.deadline, sql.placeholder("now"))),
    eq(bets.status, "active"),
  );
const userBetQueries = {
  created: preparedOnce(() =>
    db
      .select()
      .from(bets)
      .where(and(eq(bets.creatorId, sql.placeholder("userId")), openAt()))
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare(),
  ),
  joined: preparedOnce(() =>
    db
      .select()
      .from(bets)
      .where(
        and(
          inArray(bets.id, myBetIds(2)),
          sql`${bets.creatorId} <> ${sql.placeholder("userId")}`,
          openAt(),
        ),
      )
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare(),
  ),
  completed: preparedOnce(() =>
    db
      .select()
      .from(bets)
      .where(and(inArray(bets.id, myBetIds()), eq(bets.status, "settled")))
      .orderBy(desc(bets.settledAt), desc(bets.id))
      .prepare(),
  ),
  all: preparedOnce(() =>
    db
      .select()
      .from(bets)
      .where(inArray(bets.id, myBetIds()))
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare(),
  ),
};

export function listUserBets(
  userId: number,
  kind: BetListKind,
  now = Date.now(),
): BetView[] {
  const rows = userBetQueries[kind]().all({ userId, now });
  return toViews(rows, now);
}

/** Every bet I am in, of any status, newest first (My Bets' All tab). */
export function listAllUserBets(userId: number, now = Date.now()): BetView[] {
  return toViews(userBetQueries.all().all({ userId }), now);
}

// --- Background sweep -------------------------------------------------------

/** Stores what reads already show: pending bets past their deadline are cancelled. */
export function cancelExpiredBets(now = Date.now()): number {
  return db
    .update(bets)
    .set({ status: "cancelled", updatedAt: new Date(now) })
    .where(and(eq(bets.status, "pending"), lte(bets.deadline, new Date(now))))
    .run().changes;
}

// --- JSON -------------------------------------------------------------------

/** A join's `version` is the bet's `updatedAt` as shown: ISO text or epoch ms. */
export function parseVersion(value: unknown): number | null | "invalid" {
  if (value === undefined || value === null || value === "") return null;
  const ms =
    typeof value === "number"
      ? value
      : typeof value === "string"
        ? Date.parse(value)
        : NaN;
  return Number.isFinite(ms) ? ms : "invalid";
}

export function toBetJson(bet: BetView) {
  return {
    id: bet.id,
    code: bet.code,
    title: bet.title,
    description: bet.description,
    amount: centsToDollars(bet.amountCents),
    visibility: bet.visibility,
    deadline: bet.deadline.toISOString(),
    status: bet.status,
    creatorId: bet.creatorId,
    participantIds: bet.participants.map((p) => p.id),
    winnerId: bet.winnerId,
    createdAt: bet.createdAt.toISOString(),
    updatedAt: bet.updatedAt.toISOString(),
    refereeId: bet.refereeId,
    voidedAt: bet.voidedAt ? bet.voidedAt.toISOString() : null,
    paymentDueAt: bet.paymentDueAt ? bet.paymentDueAt.toISOString() : null,
    dispute: bet.disputeReferredAt
      ? {
          referredAt: bet.disputeReferredAt.toISOString(),
          referredBy: bet.disputeReferredBy,
        }
      : null,
  };
}

export function toBetListJson(bet: BetView, userId: number) {
  return {
    ...toBetJson(bet),
    type: bet.creatorId === userId ? ("created" as const) : ("joined" as const),
  };
}

// --- Dashboard ----------------------------------------------------------------

export type Dashboard = {
  /** Created and joined bets (pending or active), newest first, each with my role. */
  bets: (BetView & { type: "created" | "joined" })[];
  createdCount: number;
  joinedCount: number;
  /** Ruling 5: the sum and count over my active bets (two participants, not settled). */
  atStakeCents: number;
  atStakeCount: number;
};

export function getDashboard(userId: number, now = Date.now()): Dashboard {
  const created = listUserBets(userId, "created", now);
  const joined = listUserBets(userId, "joined", now);
  const bets = [
    ...created.map((b) => ({ ...b, type: "created" as const })),
    ...joined.map((b) => ({ ...b, type: "joined" as const })),
  ].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  );
  const active = bets.filter((b) => b.status === "active");
  return {
    bets,
    createdCount: created.length,
    joinedCount: joined.length,
    atStakeCents: active.reduce((sum, b) => sum + b.amountCents, 0),
    atStakeCount: active.length,
  };
}
