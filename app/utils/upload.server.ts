// Reading an upload with a hard size limit: the declared Content-Length is
// checked first, then bytes are counted while streaming, so an oversized
// body is refused before anything parses it.
import { DomainError } from "./errors";
import { UNREADABLE_FORM } from "./form-data.server";

export async function readLimitedBody(
  request: Request,
  limit: number,
  message: string,
): Promise<Buffer> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > limit) throw new DomainError(413, message);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stop reading, but do not cancel: cancelling destroys the socket and
      // the refusal could never be sent. The 413 answer closes the connection.
      reader.releaseLock();
      throw new DomainError(413, message);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

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
