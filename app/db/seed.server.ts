// Demo data for the README's `npm start` (DEMO_MODE=1): written only into an
// empty database, through the same model functions the app uses.
import { sql } from "drizzle-orm";
import { db } from "./client.server";
import { users } from "./schema";
import { registerUser } from "~/models/user.server";

export const DEMO_PASSWORD = "password123";
export const DEMO_USERS = ["alice", "bob", "carol"] as const;

export async function seedDemoData() {
  const existing = db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .get();
  if ((existing?.n ?? 0) > 0) return false;
  for (const name of DEMO_USERS) {
    await registerUser({
      username: name,
      email: `${name}@example.com`,
      password: DEMO_PASSWORD,
    });
  }
  return true;
}
