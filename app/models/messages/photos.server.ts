// Photos as evidence on a message (docs/product-rules.md#messages): checked
// by their bytes, re-encoded by sharp (the avatar's library, one decode at a
// time) so the long side is at most 1,600 px and every metadata field —
// location, camera, time — is gone, with a thumbnail beside it.
import { and, asc, eq } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import { betMessagePhotos } from "~/db/schema";
import {
  PHOTO_LONG_SIDE,
  PHOTO_MAX_BYTES,
  PHOTO_MESSAGES,
  PHOTO_THUMB_SIDE,
  PHOTOS_PER_MESSAGE,
} from "~/domain/messages";
import {
  loadSharp,
  oneDecodeAtATime,
  sniffImageType,
} from "../accounts/avatar.server";
import { DomainError, invalid } from "~/utils/errors";

/** Past this many pixels a photo is refused before it is decoded (a decompression bomb). */
const PHOTO_MAX_INPUT_PIXELS = 100_000_000;

export type ProcessedPhoto = {
  data: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
};

/** The uploads of one message, checked before any is decoded: how many, how big, what they are. */
export function checkPhotos(uploads: Uint8Array[]) {
  if (uploads.length > PHOTOS_PER_MESSAGE)
    throw invalid(PHOTO_MESSAGES.tooMany, { photo: [PHOTO_MESSAGES.tooMany] });
  for (const bytes of uploads) {
    if (bytes.byteLength > PHOTO_MAX_BYTES)
      throw new DomainError(413, PHOTO_MESSAGES.tooLarge, {
        photo: [PHOTO_MESSAGES.tooLarge],
      });
    const type = sniffImageType(bytes);
    if (type === null || type === "image/gif")
      throw invalid(PHOTO_MESSAGES.notImage, {
        photo: [PHOTO_MESSAGES.notImage],
      });
  }
}

/** One upload re-encoded as WebP with no metadata, and its thumbnail. */
export async function processPhoto(bytes: Uint8Array): Promise<ProcessedPhoto> {
  try {
    const sharp = await loadSharp();
    return await oneDecodeAtATime(async () => {
      // sharp writes no metadata unless asked to (withMetadata/keepExif):
      // the EXIF orientation is applied first, then nothing of it is kept.
      const { data, info } = await sharp(bytes, {
        limitInputPixels: PHOTO_MAX_INPUT_PIXELS,
        animated: false,
        failOn: "error",
      })
        .rotate()
        .resize(PHOTO_LONG_SIDE, PHOTO_LONG_SIDE, {
          fit: "inside",
          withoutEnlargement: true,
        })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      const thumb = await sharp(data)
        .resize(PHOTO_THUMB_SIDE, PHOTO_THUMB_SIDE, { fit: "inside" })
        .webp({ quality: 70 })
        .toBuffer();
      return { data, thumb, width: info.width, height: info.height };
    });
  } catch {
    throw invalid(PHOTO_MESSAGES.unreadable, {
      photo: [PHOTO_MESSAGES.unreadable],
    });
  }
}

export type PhotoRef = {
  id: number;
  messageId: number;
  width: number;
  height: number;
};

/** The photos of a bet's messages, by message, in their order. */
export async function photosOfBet(betId: number) {
  const rows = await db
    .select({
      id: betMessagePhotos.id,
      messageId: betMessagePhotos.messageId,
      width: betMessagePhotos.width,
      height: betMessagePhotos.height,
    })
    .from(betMessagePhotos)
    .where(eq(betMessagePhotos.betId, betId))
    .orderBy(asc(betMessagePhotos.messageId), asc(betMessagePhotos.position));
  const byMessage = new Map<number, PhotoRef[]>();
  for (const row of rows) {
    const list = byMessage.get(row.messageId) ?? [];
    list.push(row);
    byMessage.set(row.messageId, list);
  }
  return byMessage;
}

/** A stored photo's bytes (or its thumbnail's), when it belongs to this message of this bet. */
export async function photoBytes(
  betId: number,
  messageId: number,
  photoId: number,
  size: "full" | "thumb",
) {
  const row = (
    await db
      .select({
        data: size === "thumb" ? betMessagePhotos.thumb : betMessagePhotos.data,
        contentType: betMessagePhotos.contentType,
      })
      .from(betMessagePhotos)
      .where(
        and(
          eq(betMessagePhotos.id, photoId),
          eq(betMessagePhotos.messageId, messageId),
          eq(betMessagePhotos.betId, betId),
        ),
      )
      .limit(1)
  )[0];
  return row ?? null;
}
