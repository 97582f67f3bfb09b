// readUploadedFile parses multipart itself (one copy of an upload, not four:
// docs/decisions/archive/0820-upload-memory-one-copy.md). It must accept and refuse exactly what
// `request.formData()` does and return what `.get(field)` would: each case
// below is run through both.
import { describe, expect, it } from "vitest";
import { DomainError } from "~/utils/errors";
import { UNREADABLE_FORM } from "~/framework/form-data.server";
import { multipartBoundary } from "./multipart-parser.server";
import { readUploadedFile } from "./upload.server";

const B = "----fairshake-boundary-0123456789";
const TYPE = `multipart/form-data; boundary=${B}`;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]);

function part(headers: string, body: string | Uint8Array) {
  return [`--${B}\r\n${headers}\r\n\r\n`, body, "\r\n"];
}
function bytes(...pieces: Array<string | Uint8Array>) {
  return Buffer.concat(
    pieces.map((p) => (typeof p === "string" ? Buffer.from(p) : p)),
  );
}
const fileHeader = (name = "avatar", filename = "me.png") =>
  `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png`;

/** The body in `chunks` pieces, as the request handler streams it. */
function request(body: Uint8Array, type = TYPE, chunks = 1) {
  const size = Math.ceil(body.length / chunks) || 1;
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < body.length; i += size)
    pieces.push(body.subarray(i, i + size));
  // A streamed body needs `duplex` (Node's fetch), which DOM's RequestInit lacks.
  const init: RequestInit & { duplex: "half" } = {
    method: "POST",
    headers: { "Content-Type": type },
    body: new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of pieces) c.enqueue(p);
        c.close();
      },
    }),
    duplex: "half",
  };
  return new Request("http://localhost/profile/edit", init);
}

/** What the route did before: undici's parser and `.get(field)`. */
async function reference(body: Uint8Array, type: string, field: string) {
  let form: FormData;
  try {
    form = await request(body, type).formData();
  } catch {
    return "refused";
  }
  const file = form.get(field);
  if (!(file instanceof File) || file.size === 0) return null;
  return Buffer.from(await file.arrayBuffer()).toString("hex");
}

async function ours(body: Uint8Array, type: string, field: string, chunks = 1) {
  try {
    const file = await readUploadedFile(request(body, type, chunks), field);
    return file && Buffer.from(file).toString("hex");
  } catch (error) {
    if (error instanceof DomainError && error.status === 400) {
      expect(error.message).toBe(UNREADABLE_FORM);
      return "refused";
    }
    throw error;
  }
}

const end = `--${B}--\r\n`;
const cases: Array<[string, Uint8Array, string?, string?]> = [
  ["one file", bytes(...part(fileHeader(), PNG), end)],
  ["no closing CRLF", bytes(...part(fileHeader(), PNG), `--${B}--`)],
  [
    "leading and trailing CRLFs",
    bytes("\r\n\r\n", ...part(fileHeader(), PNG), end, "\r\n\r\n"),
  ],
  [
    "a text field first",
    bytes(
      ...part('Content-Disposition: form-data; name="intent"', "avatar"),
      ...part(fileHeader(), PNG),
      end,
    ),
  ],
  [
    "a text field of the same name only",
    bytes(...part('Content-Disposition: form-data; name="avatar"', "x"), end),
  ],
  [
    "two files: the first wins",
    bytes(
      ...part(fileHeader(), PNG),
      ...part(fileHeader("avatar", "b.png"), "second"),
      end,
    ),
  ],
  ["an empty file", bytes(...part(fileHeader(), ""), end)],
  ["another field's file only", bytes(...part(fileHeader("other"), PNG), end)],
  ["no parts", bytes(end)],
  ["empty body", bytes("")],
  [
    "filename*",
    bytes(
      ...part(
        `Content-Disposition: form-data; name="avatar"; filename*="me.png"`,
        PNG,
      ),
      end,
    ),
  ],
  [
    "escaped name",
    bytes(
      ...part(
        `Content-Disposition: form-data; name="av%22atar"; filename="a"`,
        PNG,
      ),
      end,
    ),
    TYPE,
    'av"atar',
  ],
  [
    "header case and spaces",
    bytes(
      ...part(
        `content-DISPOSITION :   form-data; name="avatar"; filename="me.png"\r\nX-Other: 1`,
        PNG,
      ),
      end,
    ),
  ],
  [
    "base64",
    bytes(
      ...part(
        `${fileHeader()}\r\nContent-Transfer-Encoding: base64`,
        Buffer.from(PNG).toString("base64"),
      ),
      end,
    ),
  ],
  [
    "body with CRLF and dashes inside",
    bytes(...part(fileHeader(), "a\r\n--x\r\n--" + B.slice(0, 10)), end),
  ],
  ["broken", bytes(`--${B}\r\nbroken`)],
  ["no closing boundary", bytes(...part(fileHeader(), PNG))],
  [
    "wrong boundary",
    bytes(...part(fileHeader(), PNG), end),
    "multipart/form-data; boundary=other",
  ],
  [
    "no boundary",
    bytes(...part(fileHeader(), PNG), end),
    "multipart/form-data",
  ],
  [
    "quoted boundary",
    bytes(...part(fileHeader(), PNG), end),
    `multipart/form-data; charset=utf-8; boundary="${B}"`,
  ],
  [
    "boundary with spaces",
    bytes(...part(fileHeader(), PNG), end),
    `Multipart/Form-Data ;  BOUNDARY=${B}  `,
  ],
  [
    "empty boundary then real",
    bytes(...part(fileHeader(), PNG), end),
    `multipart/form-data; boundary=; boundary=${B}`,
  ],
  [
    "not form-data",
    bytes(...part(fileHeader(), PNG), end),
    `multipart/mixed; boundary=${B}`,
  ],
  [
    "no name",
    bytes(...part('Content-Disposition: form-data; filename="a"', PNG), end),
  ],
  [
    "not form-data disposition",
    bytes(...part('Content-Disposition: attachment; name="avatar"', PNG), end),
  ],
  [
    "unquoted filename",
    bytes(
      ...part(
        'Content-Disposition: form-data; name="avatar"; filename=a.png',
        PNG,
      ),
      end,
    ),
  ],
  [
    "bad header name",
    bytes(...part(`${fileHeader()}\r\nBad Header: x`, PNG), end),
  ],
  [
    "header without colon",
    bytes(...part(`${fileHeader()}\r\nnocolon`, PNG), end),
  ],
  ["no blank line", bytes(`--${B}\r\n${fileHeader()}\r\n`, end)],
  [
    "junk after the boundary",
    bytes(...part(fileHeader(), PNG), `--${B}junk\r\n`),
  ],
  ["preamble", bytes("preamble\r\n", ...part(fileHeader(), PNG), end)],
];

describe("readUploadedFile", () => {
  it.each(cases)(
    "%s: as request.formData() does",
    async (_, body, type = TYPE, field = "avatar") => {
      const expected = await reference(body, type, field);
      expect(await ours(body, type, field)).toEqual(expected);
      // The same body in small chunks, as a slow sender's arrives.
      expect(await ours(body, type, field, 7)).toEqual(expected);
    },
  );

  it("returns a view into the body it read, not a copy", async () => {
    const body = bytes(...part(fileHeader(), PNG), end);
    const file = await readUploadedFile(request(body), "avatar");
    expect(file?.buffer).toBe(body.buffer);
    expect(Buffer.from(file!)).toEqual(Buffer.from(PNG));
  });

  it("reads the boundary as the Fetch standard's MIME parser does", () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(
      multipartBoundary('multipart/form-data; boundary="a\\"b"; x=1'),
    ).toBe('a"b');
    expect(multipartBoundary("multipart/form-data; boundary")).toBeNull();
    expect(multipartBoundary("text/plain; boundary=x")).toBeNull();
    expect(multipartBoundary(null)).toBeNull();
  });
});
