// Parsing an upload. Its size was already held to the route's limit while it
// streamed in (app/framework/request-handler.ts), before anything parses it.
import { DomainError } from "~/utils/errors";
import { UNREADABLE_FORM } from "~/framework/form-data.server";

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

/** The whole body in one piece: the chunk itself when there is only one. */
async function readBody(request: Request): Promise<Uint8Array> {
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

// --- The Fetch standard's multipart/form-data parser, for one file -----------
// Follows undici's `multipartFormDataParser` step by step, so a body is
// refused here exactly when `request.formData()` would refuse it
// (app/framework/upload.server.test.ts checks the two against each other).

const CR = 0x0d;
const LF = 0x0a;
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~A-Za-z0-9]+$/;
const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder();

/**
 * The `boundary` parameter of a multipart/form-data type, or null: the Fetch
 * standard's MIME type parsing, reduced to the one parameter needed.
 */
export function multipartBoundary(contentType: string | null): string | null {
  if (contentType === null) return null;
  const value = contentType.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
  const semicolon = value.indexOf(";");
  const essence = (semicolon === -1 ? value : value.slice(0, semicolon))
    .replace(/[\t\n\r ]+$/, "")
    .toLowerCase();
  if (essence !== "multipart/form-data") return null;
  let at = semicolon;
  while (at !== -1 && at < value.length) {
    at += 1; // past ";"
    while (/[\t\n\r ]/.test(value[at] ?? "")) at++;
    const nameEnd = value.slice(at).search(/[;=]/);
    const name = value
      .slice(at, nameEnd === -1 ? undefined : at + nameEnd)
      .toLowerCase();
    if (nameEnd === -1) return null;
    at += nameEnd;
    if (value[at] === ";") continue;
    at += 1; // past "="
    let param: string;
    if (value[at] === '"') {
      param = "";
      at += 1;
      while (at < value.length && value[at] !== '"') {
        if (value[at] === "\\" && at + 1 < value.length) at += 1;
        param += value[at];
        at += 1;
      }
      at = value.indexOf(";", at);
    } else {
      const end = value.indexOf(";", at);
      param = value
        .slice(at, end === -1 ? undefined : end)
        .replace(/[\t\n\r ]+$/, "");
      at = end;
      if (param === "") continue;
    }
    if (name === "boundary") return param;
  }
  return null;
}

function startsWith(input: Uint8Array, prefix: Uint8Array, at: number) {
  if (at + prefix.length > input.length) return false;
  for (let i = 0; i < prefix.length; i++)
    if (input[at + i] !== prefix[i]) return false;
  return true;
}

function indexOf(input: Uint8Array, needle: Uint8Array, from: number) {
  return Buffer.from(input.buffer, input.byteOffset, input.byteLength).indexOf(
    needle,
    from,
  );
}

const FORM_DATA_NAME = Buffer.from('form-data; name="');
const FILENAME = Buffer.from("; filename");
const DASH_DASH = Buffer.from("--");
const DASH_DASH_CRLF = Buffer.from("--\r\n");

/**
 * The body of the first file part named `field` (a view into `input`, or a
 * decoded copy for base64 parts), null when there is none, "failure" when
 * the body is not valid multipart.
 */
export function findFilePart(
  input: Uint8Array,
  boundaryString: string,
  field: string,
): Uint8Array | null | "failure" {
  const boundary = Buffer.from(`--${boundaryString}`, "utf8");
  let found: Uint8Array | null = null;
  let at = 0;
  while (input[at] === CR && input[at + 1] === LF) at += 2;
  let end = input.length;
  while (input[end - 1] === LF && input[end - 2] === CR) end -= 2;
  if (end !== input.length) input = input.subarray(0, end);

  for (;;) {
    if (!startsWith(input, boundary, at)) return "failure";
    at += boundary.length;
    if (
      (at === input.length - 2 && startsWith(input, DASH_DASH, at)) ||
      (at === input.length - 4 && startsWith(input, DASH_DASH_CRLF, at))
    )
      return found;
    if (input[at] !== CR || input[at + 1] !== LF) return "failure";
    at += 2;

    const headers = parsePartHeaders(input, at);
    if (headers === "failure") return "failure";
    at = headers.at + 2;

    const next = indexOf(input, boundary.subarray(2), at);
    if (next === -1) return "failure";
    let body = input.subarray(at, next - 4);
    at += body.length;
    if (input[at] !== CR || input[at + 1] !== LF) return "failure";
    at += 2;

    if (found === null && headers.filename !== null && headers.name === field) {
      if (headers.encoding === "base64")
        body = Buffer.from(
          Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString(),
          "base64",
        );
      found = body;
    }
  }
}

type PartHeaders = {
  name: string;
  filename: string | null;
  encoding: string | null;
  at: number;
};

function parsePartHeaders(
  input: Uint8Array,
  start: number,
): PartHeaders | "failure" {
  let at = start;
  let name: string | null = null;
  let filename: string | null = null;
  let encoding: string | null = null;
  const collect = (keep: (byte: number) => boolean) => {
    const from = at;
    while (at < input.length && keep(input[at] ?? 0)) at++;
    return input.subarray(from, at);
  };
  const readName = (): string | null => {
    const raw = collect((c) => c !== LF && c !== CR && c !== 0x22);
    if (input[at] !== 0x22) return null;
    at++;
    return utf8
      .decode(raw)
      .replace(/%0A/gi, "\n")
      .replace(/%0D/gi, "\r")
      .replace(/%22/g, '"');
  };
  const headerValue = () =>
    latin1.decode(collect((c) => c !== LF && c !== CR)).replace(/[\t ]+$/, "");

  for (;;) {
    if (input[at] === CR && input[at + 1] === LF) {
      if (name === null) return "failure";
      return { name, filename, encoding, at };
    }
    const headerName = latin1
      .decode(collect((c) => c !== LF && c !== CR && c !== 0x3a))
      .replace(/^[\t ]+|[\t ]+$/g, "");
    if (!HTTP_TOKEN.test(headerName)) return "failure";
    if (input[at] !== 0x3a) return "failure";
    at++;
    collect((c) => c === 0x20 || c === 0x09);
    switch (headerName.toLowerCase()) {
      case "content-disposition": {
        name = filename = null;
        if (!startsWith(input, FORM_DATA_NAME, at)) return "failure";
        at += FORM_DATA_NAME.length;
        name = readName();
        if (name === null) return "failure";
        if (startsWith(input, FILENAME, at)) {
          let check = at + FILENAME.length;
          if (input[check] === 0x2a) {
            at += 1;
            check += 1;
          }
          if (input[check] !== 0x3d || input[check + 1] !== 0x22)
            return "failure";
          at += 12;
          filename = readName();
          if (filename === null) return "failure";
        }
        break;
      }
      case "content-transfer-encoding":
        encoding = headerValue();
        break;
      default:
        collect((c) => c !== LF && c !== CR);
    }
    // As undici checks it: only a line that is neither CR… nor …LF fails.
    if (input[at] !== CR && input[at + 1] !== LF) return "failure";
    at += 2;
  }
}
