// The Fetch standard's multipart/form-data parser, split from
// ./upload.server.ts (which reads the body once and hands it here).
// --- The Fetch standard's multipart/form-data parser, for one file -----------
// Follows undici 7's `multipartFormDataParser` (Node 24's) step by step, so a body is
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

const DASH_DASH = Buffer.from("--");

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
  // The whole body is read as formData() reads it (a malformed part after
  // the file still refuses it); each part is a view, so nothing is copied.
  const parts = allParts(input, boundaryString);
  if (parts === "failure") return "failure";
  return (
    parts.find((part) => part.filename !== null && part.name === field)?.body ??
    null
  );
}

/** Every part of a multipart body, in order; "failure" when it is not valid multipart. */
export function allParts(
  input: Uint8Array,
  boundaryString: string,
): { name: string; filename: string | null; body: Uint8Array }[] | "failure" {
  const boundary = Buffer.from(`--${boundaryString}`, "utf8");
  const parts: { name: string; filename: string | null; body: Uint8Array }[] =
    [];
  let at = indexOf(input, boundary, 0);
  if (at === -1) return "failure";
  for (;;) {
    if (!startsWith(input, boundary, at)) return "failure";
    at += boundary.length;
    if (startsWith(input, DASH_DASH, at)) return parts;
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
    if (headers.encoding === "base64")
      body = Buffer.from(
        Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString(),
        "base64",
      );
    parts.push({ name: headers.name, filename: headers.filename, body });
  }
}

type PartHeaders = {
  name: string;
  filename: string | null;
  encoding: string | null;
  at: number;
};

/** A token byte (RFC 2045): ASCII, no space, control or tspecial. */
function isToken(c: number) {
  return c > 0x20 && c < 0x7f && !TSPECIALS.has(c);
}
const TSPECIALS = new Set([...'()<>@,;:\\"/[]?='].map((c) => c.charCodeAt(0)));

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
  const skipBlanks = () => collect((c) => c === 0x20 || c === 0x09);
  const headerValue = () =>
    latin1.decode(collect((c) => c !== LF && c !== CR)).replace(/[\t ]+$/, "");
  /** One `; name=value` of a Content-Disposition; null when there is none. */
  const attribute = () => {
    if (input[at] === 0x3b) at++;
    skipBlanks();
    const attributeName = collect((c) => isToken(c) && c !== 0x2a);
    if (attributeName.length === 0) return null;
    const extended = input[at] === 0x2a;
    if (extended) at++;
    if (input[at] !== 0x3d) return null;
    at++;
    skipBlanks();
    let value: string;
    if (extended) {
      // RFC 5987: utf-8'language'percent-encoded
      const raw = collect(
        (c) => c !== 0x20 && c !== CR && c !== LF && c !== 0x3b,
      );
      if (!/^utf-8/i.test(latin1.decode(raw.subarray(0, 5)))) throw FAILURE;
      try {
        value = decodeURIComponent(utf8.decode(raw.subarray(7)));
      } catch {
        throw FAILURE;
      }
    } else if (input[at] === 0x22) {
      at++;
      const raw = collect((c) => c !== LF && c !== CR && c !== 0x22);
      if (input[at] !== 0x22) throw FAILURE;
      at++;
      value = utf8
        .decode(raw)
        .replace(/%0A/gi, "\n")
        .replace(/%0D/gi, "\r")
        .replace(/%22/g, '"');
    } else {
      value = utf8.decode(collect((c) => isToken(c) && c !== 0x3b));
    }
    return {
      name: latin1.decode(attributeName).toLowerCase(),
      value,
      extended,
    };
  };

  try {
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
      skipBlanks();
      switch (headerName.toLowerCase()) {
        case "content-disposition": {
          name = filename = null;
          // The extended form (filename*) wins over the plain one, in any order.
          let extendedFilename = false;
          const type = latin1.decode(collect(isToken)).toLowerCase();
          if (type !== "form-data") return "failure";
          while (
            at < input.length &&
            (input[at] !== CR || input[at + 1] !== LF)
          ) {
            const a = attribute();
            if (!a) break;
            if (a.name === "name") name = a.value;
            else if (
              a.name === "filename" &&
              (a.extended || !extendedFilename)
            ) {
              filename = a.value;
              extendedFilename ||= a.extended;
            }
          }
          if (name === null) return "failure";
          break;
        }
        case "content-transfer-encoding":
          encoding = headerValue();
          break;
        default:
          collect((c) => c !== LF && c !== CR);
      }
      if (input[at] !== CR || input[at + 1] !== LF) return "failure";
      at += 2;
    }
  } catch (error) {
    if (error === FAILURE) return "failure";
    throw error;
  }
}
const FAILURE = Symbol("failure");
