// The person's own messages and their photos, for their export
// (docs/product-rules.md#your-data).
import { asc, eq } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import { betMessagePhotos, betMessages } from "~/db/schema";

/** The person's own messages, for their export (docs/product-rules.md#your-data). */
export async function messagesWrittenBy(userId: number) {
  const rows = await db
    .select({
      id: betMessages.id,
      betId: betMessages.betId,
      body: betMessages.body,
      createdAt: betMessages.createdAt,
      deletedAt: betMessages.deletedAt,
    })
    .from(betMessages)
    .where(eq(betMessages.authorId, userId))
    .orderBy(asc(betMessages.id));
  // Their photos, by where they are served (the bytes stay behind the session).
  const photos = await db
    .select({
      id: betMessagePhotos.id,
      messageId: betMessagePhotos.messageId,
      width: betMessagePhotos.width,
      height: betMessagePhotos.height,
    })
    .from(betMessagePhotos)
    .innerJoin(betMessages, eq(betMessages.id, betMessagePhotos.messageId))
    .where(eq(betMessages.authorId, userId))
    .orderBy(asc(betMessagePhotos.messageId), asc(betMessagePhotos.position));
  return rows.map((row) => ({
    ...row,
    photos: photos.filter((p) => p.messageId === row.id),
  }));
}
