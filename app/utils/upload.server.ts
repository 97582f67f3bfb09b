// Parsing an upload. Its size was already held to the route's limit while it
// streamed in (server/request-handler.ts), before anything parses it.
import { DomainError } from "./errors";
import { UNREADABLE_FORM } from "./form-data.server";

/**
 * Parses a multipart body that has already been read within its limit. A
 * body that is not valid multipart is the sender's error: 400, not a 500.
 */
export async function parseMultipart(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new DomainError(400, UNREADABLE_FORM);
  }
}

/**
 * The bytes of the file sent in `field`, or null when there is none or it is
 * empty. Only these bytes outlive the call: the parsed form and its copies go
 * with it, so an upload waiting its turn to be decoded holds one copy of its
 * image, not four (docs/decisions/0804).
 */
export async function readUploadedFile(
  request: Request,
  field: string,
): Promise<Uint8Array | null> {
  const file = (await parseMultipart(request)).get(field);
  if (!(file instanceof File) || file.size === 0) return null;
  return new Uint8Array(await file.arrayBuffer());
}
