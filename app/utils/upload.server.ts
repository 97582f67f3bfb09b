// Parsing an upload. Its size was already held to the route's limit while it
// streamed in (server/request-handler.ts), before anything parses it.
import { DomainError } from "./errors";
import { UNREADABLE_FORM } from "./form-data.server";

/**
 * Parses a multipart body that has already been read within its limit. A
 * body that is not valid multipart is the sender's error: 400, not a 500.
 */
export async function parseMultipart(
  body: Buffer,
  contentType: string,
): Promise<FormData> {
  try {
    return await new Response(new Uint8Array(body), {
      headers: { "Content-Type": contentType },
    }).formData();
  } catch {
    throw new DomainError(400, UNREADABLE_FORM);
  }
}
