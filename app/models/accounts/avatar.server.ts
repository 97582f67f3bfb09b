// Uploaded avatars: checked by their bytes (not their name or declared type),
// re-encoded by sharp into a small square WebP with no metadata, stored in
// the avatars table and served from /avatars/{userId} with an ETag.
// docs/decisions/0301-avatar-upload.md explains why this replaces the old
// data-URL reading.
import { href } from "react-router";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type Sharp from "sharp";
import { db, immediate } from "~/db/transactions.server";
import { avatars, users, type User } from "~/db/schema";
import { DomainError, invalid } from "~/utils/errors";
import {
  AVATAR_MAX_BYTES,
  AVATAR_MAX_INPUT_PIXELS,
  AVATAR_MESSAGES,
  AVATAR_SIZE,
} from "./avatar-rules";

// Decoding is where an upload costs memory: a large PNG (within the limits)
// takes tens of megabytes while it is decoded. One decode at a time, the rest
// wait their turn, so 16 uploads at once cost about what one does and the
// other core stays free for pages; nothing is kept in libvips' operation
// cache, as no avatar is processed twice (measured in docs/decisions/archive/0803-bounded-memory.md).
//
// sharp (libvips) adds to the process the moment it loads, so it loads with
// the first upload, not with the server (measured in docs/decisions/archive/0803-bounded-memory.md,
// docs/decisions/archive/0820-upload-memory-one-copy.md).
//
// libvips runs each decode on one thread. sharp chooses that itself on glibc,
// but only when MALLOC_ARENA_MAX is unset: the server runs with it set
// (docs/decisions/archive/0804-one-malloc-arena.md), so sharp took one libvips thread per core, and each
// extra thread's buffers added memory to decodes in a row for no gain (one
// decode runs at a time and the other core serves pages; measured in
// docs/decisions/archive/0820-upload-memory-one-copy.md).
let sharpLoaded: Promise<typeof Sharp> | undefined;
export function loadSharp() {
  sharpLoaded ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpLoaded;
}
const MAX_CONCURRENT_DECODES = 1;
let decoding = 0;
const waiting: Array<() => void> = [];

export async function oneDecodeAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (decoding >= MAX_CONCURRENT_DECODES)
    await new Promise<void>((resolve) => waiting.push(resolve));
  else decoding += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else decoding -= 1;
  }
}

export type ImageType = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

/** The type of an image from its first bytes, or null if it is none we accept. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const starts = (sig: number[], offset = 0) =>
    sig.every((b, i) => bytes[offset + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (
    starts([0x47, 0x49, 0x46, 0x38]) &&
    (bytes[4] === 0x37 || bytes[4] === 0x39) &&
    bytes[5] === 0x61
  )
    return "image/gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8))
    return "image/webp";
  return null;
}

/** Re-encodes an upload into a 256×256 WebP, metadata stripped. */
export async function processAvatar(bytes: Uint8Array): Promise<Buffer> {
  if (bytes.byteLength === 0) throw invalid(AVATAR_MESSAGES.missing);
  if (bytes.byteLength > AVATAR_MAX_BYTES)
    throw new DomainError(413, AVATAR_MESSAGES.tooLarge);
  if (!sniffImageType(bytes)) throw invalid(AVATAR_MESSAGES.notImage);
  try {
    const sharp = await loadSharp();
    return await oneDecodeAtATime(() =>
      sharp(bytes, {
        limitInputPixels: AVATAR_MAX_INPUT_PIXELS,
        animated: false,
        failOn: "error",
      })
        .rotate() // apply EXIF orientation before the metadata goes
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover", position: "centre" })
        .webp({ quality: 82 })
        .toBuffer(),
    );
  } catch (error) {
    if (/pixel limit/i.test(String(error)))
      throw invalid(AVATAR_MESSAGES.tooManyPixels);
    throw invalid(AVATAR_MESSAGES.unreadable);
  }
}

export function avatarPath(userId: number, etag: string) {
  return `${href("/avatars/:userId", { userId: String(userId) })}?v=${etag}`;
}

/** Stores a processed avatar and points the user's avatarUrl at it. */
export async function saveAvatar({
  userId,
  bytes,
}: {
  userId: number;
  bytes: Uint8Array;
}): Promise<User> {
  const data = await processAvatar(bytes);
  const etag = crypto
    .createHash("sha256")
    .update(data)
    .digest("base64url")
    .slice(0, 16);
  return await immediate(async (tx) => {
    await tx
      .insert(avatars)
      .values({
        userId,
        contentType: "image/webp",
        data,
        etag,
        updatedAt: new Date(),
      })
      .onConflictDoUpdate({
        target: avatars.userId,
        set: { contentType: "image/webp", data, etag, updatedAt: new Date() },
      });
    return (
      await tx
        .update(users)
        .set({ avatarUrl: avatarPath(userId, etag) })
        .where(eq(users.id, userId))
        .returning()
    )[0]!;
  });
}

export async function getAvatar(userId: number) {
  return (
    (
      await db.select().from(avatars).where(eq(avatars.userId, userId)).limit(1)
    )[0] ?? null
  );
}
