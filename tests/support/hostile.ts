// fast-check generators for what an attacker or a broken client sends:
// wrong types, missing fields, huge strings, unicode and NUL, SQL and HTML.
import fc from "fast-check";

export const SQL_PAYLOADS = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1; DELETE FROM bets",
  "1 UNION SELECT password_hash FROM users --",
  "%' AND 1=1 --",
];

export const HTML_PAYLOADS = [
  "<script>alert(1)</script>",
  "</script><script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "<svg onload=alert(1)>",
  "javascript:alert(1)",
  "{{7*7}} ${7*7} <%= 7*7 %>",
  "<!--",
  "]]>",
];

export const ODD_TEXT = [
  "\u0000",
  "a\u0000b",
  "\u202Eevil\u202C",
  "\u200B\u200D\uFEFF",
  "🎲🏆💸👩‍👩‍👧‍👦",
  "e\u0301\u0301\u0301",
  "ＡＢＣ",
  "\r\n\t",
  "../../etc/passwd",
  "%00%0d%0a",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e309",
  "9007199254740993",
];

/** A string that would be hostile in a field. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(...SQL_PAYLOADS, ...HTML_PAYLOADS, ...ODD_TEXT),
  fc
    .tuple(
      fc.constantFrom(...HTML_PAYLOADS, ...SQL_PAYLOADS),
      fc.string({ unit: "binary", maxLength: 10 }),
    )
    .map(([a, b]) => a + b),
  // Long: one under the 16 KB door, one far over it (100 KB).
  fc.constantFrom("x".repeat(5_000), "é".repeat(5_000), "y".repeat(100_000)),
);

/** Any JSON value a field might hold instead of the right one. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), {
    maxKeys: 3,
  }),
);

export type RawBody = { contentType: string; body: string };

/** A JSON request body for a call with these fields, as raw text. */
export function hostileJsonBody(fields: string[]): fc.Arbitrary<RawBody> {
  const json = (v: unknown) => ({
    contentType: "application/json",
    body: JSON.stringify(v) ?? "",
  });
  const shaped =
    fields.length === 0
      ? fc.constant({})
      : fc.record(Object.fromEntries(fields.map((f) => [f, hostileValue])), {
          requiredKeys: [],
        });
  return fc.oneof(
    { weight: 5, arbitrary: shaped.map(json) },
    // Right fields plus junk ones, prototype keys included.
    {
      weight: 2,
      arbitrary: fc
        .tuple(shaped, fc.dictionary(fc.string(), hostileValue, { maxKeys: 3 }))
        .map(([a, b]) => json({ ...b, ...a })),
    },
    // Not an object at all.
    { weight: 1, arbitrary: fc.jsonValue().map(json) },
    // Not JSON at all, or JSON that lies about itself.
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.string(),
          fc.constantFrom(
            "{",
            "{nope",
            '{"a":',
            "[1,2",
            '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
            '{"title":"a","title":"b"}',
            "\u0000",
            '"\\ud800"',
            "{".repeat(10_000),
            `{"a":"${"\\u0000".repeat(2_000)}"}`,
          ),
        )
        .map((body) => ({ contentType: "application/json", body })),
    },
    // The right shape under a charset or odd casing.
    {
      weight: 1,
      arbitrary: shaped.map((v) => ({
        contentType: "Application/JSON; charset=utf-16",
        body: JSON.stringify(v),
      })),
    },
  );
}
