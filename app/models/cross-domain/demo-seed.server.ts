// Demo data for the README's `npm start` (DEMO_MODE=1): written only into an
// empty database, through the same model functions the app uses, so the
// demo obeys every rule the app does.
import { sql } from "drizzle-orm";
import { db, immediate } from "~/db/transactions.server";
import { bets, users } from "~/db/schema";
import { registerUser } from "../accounts/user.server";
import { createBet, joinBet } from "../bets/bet.server";
import { openBetByCode } from "../bets/bet-access.server";
import {
  approveSettlement,
  proposeSettlement,
} from "../settlements/settlement.server";

export const DEMO_PASSWORD = "password123";
/** The seeded bet alice lost, whose page offers the demo payment (docs/product-rules.md#bets). */
export const DEMO_PAYMENT_BET_ID = 3;
export const DEMO_USERS = ["alice", "bob", "carol"] as const;

const DAY = 86_400_000;

export async function seedDemoData() {
  const existing = (
    await db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .limit(1)
  )[0];
  if ((existing?.n ?? 0) > 0) return false;
  const [alice, bob, carol] = await Promise.all(
    DEMO_USERS.map((name) =>
      registerUser({
        username: name,
        email: `${name}@example.com`,
        password: DEMO_PASSWORD,
      }),
    ),
  ).then((list) => list.sort((a, b) => a.username.localeCompare(b.username)));
  // docs/product-rules.md#accounts: the demo users are verified, so their notification mail goes out.
  await immediate(
    (tx) =>
      tx
        .update(users)
        .set({ emailVerified: true, verifiedEmail: sql`${users.email}` }),
    { bookkeeping: true },
  );
  const deadline = (days: number) => Date.now() + days * DAY;
  const bet = async (
    creatorId: number,
    title: string,
    description: string,
    dollars: number,
    days: number,
    visibility: "public" | "private" = "public",
  ) =>
    createBet({
      creatorId,
      input: {
        title,
        description,
        amountCents: dollars * 100,
        deadline: deadline(days),
        visibility,
      },
    });

  // #1 pending and public: anyone can join it from the feed.
  await bet(
    alice!.id,
    "Lakers win tonight",
    "Lakers beat the Celtics in tonight's game. Final score counts.",
    20,
    3,
  );
  // #2 active: alice and bob are both in.
  const two = await bet(
    alice!.id,
    "First to run 5k under 25 min",
    "Whoever runs a 5k under 25 minutes first, with a watch screenshot.",
    50,
    30,
    "private",
  );
  // Private: bob opens it by its code first, as a friend given the code would.
  await openBetByCode({
    code: two.code,
    userId: bob!.id,
    clientAddress: "seed",
  });
  await joinBet({ betId: two.id, userId: bob!.id });
  // #3 will be settled, alice losing (docs/product-rules.md#bets), by the settlement seed below.
  const three = await bet(
    bob!.id,
    "It snows before December",
    "Any snow at all in the city before December 1st.",
    25,
    10,
  );
  await joinBet({ betId: three.id, userId: alice!.id });
  // #4 pending, carol's, public.
  await bet(
    carol!.id,
    "Chess rematch",
    "Best of three, blitz 5+0. Loser sets up the board.",
    10,
    7,
  );
  // #5 cancelled: nobody joined before the deadline.
  const five = await bet(
    carol!.id,
    "Pancake eating contest",
    "Who eats more pancakes in ten minutes.",
    15,
    1,
  );
  await immediate(
    (tx) =>
      tx
        .update(bets)
        .set({ deadline: new Date(Date.now() - DAY), status: "cancelled" })
        .where(sql`${bets.id} = ${five.id}`),
    { bookkeeping: true },
  );
  await seedSettlements({
    alice: alice!.id,
    bob: bob!.id,
    carol: carol!.id,
    betThree: three.id,
  });
  return true;
}

/**
 * Settles bet #3 (docs/product-rules.md#bets) through the settlement model: bob proposes
 * himself as the winner, alice approves; her payment stays pending.
 */
async function seedSettlements(ids: {
  alice: number;
  bob: number;
  carol: number;
  betThree: number;
}) {
  await proposeSettlement({
    betId: ids.betThree,
    userId: ids.bob,
    winnerId: ids.bob,
    notes: "Flurries on the 20th: it snowed before December.",
  });
  await approveSettlement({ betId: ids.betThree, userId: ids.alice });
}
