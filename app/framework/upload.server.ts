// Parsing an upload. Its size was already held to the route's limit while it
// streamed in (app/framework/request-handler.ts), before anything parses it.
import { data } from "react-router";
import { DomainError } from "~/utils/errors";
import {
  CONTROL_FORM,
  readFormData,
  UNREADABLE_FORM,
} from "~/framework/form-data.server";
import { refusedText } from "~/utils/validation";
import {
  allParts,
  findFilePart,
  multipartBoundary,
} from "./multipart-parser.server";

/**
 * The bytes of the file sent in `field`, or null when there is none or it is
 * empty; 400 when the body is not valid multipart. Accepts and refuses what
 * `request.formData()` does (the Fetch standard's multipart parser, as
 * undici implements it), and answers as `.get(field)` would: the first part
 * of that name that is a file.
 *
 * Why not `request.formData()`: it copies an upload three times (the whole
 * body, a `Blob` per file, then `arrayBuffer()`), and under the bench's
 * concurrent uploads those copies were most of the memory the burst cost
 * (measured in docs/decisions/archive/0820-upload-memory-one-copy.md): V8
 * frees them only at a full collection, which a burst of uploads (little
 * JavaScript, many large buffers) reaches only through external-memory
 * pressure. Here the body is joined once and the file is a view into it,
 * so an upload holds one copy of its bytes from the moment it is read until
 * it is decoded (docs/decisions/archive/0820-upload-memory-one-copy.md).
 */
export async function readUploadedFile(
  request: Request,
  field: string,
): Promise<Uint8Array | null> {
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  const body = await readBody(request);
  const file =
    boundary === null ? "failure" : findFilePart(body, boundary, field);
  if (file === "failure") throw new DomainError(400, UNREADABLE_FORM);
  return file && file.byteLength > 0 ? file : null;
}

// A body already joined by the idempotency guard (which reads a copy of
// the request, a `clone()`), by the request it came with: the route reads
// those bytes instead of joining the same chunks a second time.
const joinedBodies = new WeakMap<Request, Uint8Array>();

/**
 * The body of `clone` joined once and kept for `request`, whose own read
 * (`readUploadedFile`, `readUploadedParts`) then takes the same bytes: a
 * page's multipart form (four photos, 40 MB) is held once, not twice
 * (docs/decisions/archive/1120-photo-upload-memory.md).
 */
export async function readBodyOnceFor(
  request: Request,
  clone: Request,
): Promise<Uint8Array> {
  const body = await readBody(clone);
  joinedBodies.set(request, body);
  return body;
}

/** The whole body in one piece: the chunk itself when there is only one. */
async function readBody(request: Request): Promise<Uint8Array> {
  const joined = joinedBodies.get(request);
  if (joined) {
    joinedBodies.delete(request);
    // The chunks the clone left queued for this request go now.
    await request.body?.cancel().catch(() => {});
    return joined;
  }
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of request.body) {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
  } catch {
    throw new DomainError(400, UNREADABLE_FORM);
  }
  const [only] = chunks;
  if (only && chunks.length === 1) return only;
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}

const UTF8 = new TextDecoder();

export type UploadedParts = {
  /** Each text field's first value, as `.get(name)` would read it. */
  fields: Map<string, string>;
  /** Every non-empty file part, in order, each a view into the one body. */
  files: { name: string; bytes: Uint8Array }[];
};

/**
 * Every part of a multipart body (a message with its photos): text fields
 * and the files, the body read once and each file a view into it, as
 * `readUploadedFile` holds one. 400 when the body is not valid multipart.
 */
export async function readUploadedParts(
  request: Request,
): Promise<UploadedParts> {
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  const body = await readBody(request);
  const parts = boundary === null ? "failure" : allParts(body, boundary);
  if (parts === "failure") throw new DomainError(400, UNREADABLE_FORM);
  const fields = new Map<string, string>();
  const files: UploadedParts["files"] = [];
  for (const part of parts) {
    if (part.filename === null) {
      if (!fields.has(part.name)) fields.set(part.name, UTF8.decode(part.body));
    } else if (part.body.byteLength > 0)
      files.push({ name: part.name, bytes: part.body });
  }
  return { fields, files };
}

/**
 * A page form that may carry files (a message with its photos): its text
 * fields as the FormData `readFormData` gives, refused as it refuses them
 * (400 when unreadable or holding a control character), and its non-empty
 * files read as `readUploadedParts` reads them, one copy of the body. A
 * form that is not multipart is read by `readFormData` and has no files.
 */
export async function readPageForm(request: Request): Promise<{
  form: FormData;
  files: UploadedParts["files"];
}> {
  if (multipartBoundary(request.headers.get("Content-Type")) === null)
    return { form: await readFormData(request), files: [] };
  let parts: UploadedParts;
  try {
    parts = await readUploadedParts(request);
  } catch {
    throw data(UNREADABLE_FORM, { status: 400, statusText: "Bad Request" });
  }
  if (refusedText(parts.fields))
    throw data(CONTROL_FORM, { status: 400, statusText: "Bad Request" });
  const form = new FormData();
  for (const [name, value] of parts.fields) form.append(name, value);
  return { form, files: parts.files };
}
