// React Router's signed cookies, read without WebCrypto. createCookie().parse
// imports the secret as a WebCrypto key and verifies the HMAC as an
// asynchronous crypto job on every call; the session cookie is read on every
// request, where that cost a measurable share of a page's CPU (measured in
// docs/decisions/archive/0810-middleware-and-render-cpu.md). This
// reads the same format (`base64(JSON)` + "." + base64 HMAC-SHA256,
// in a cookie header parsed as the `cookie` package parses it) with
// node:crypto's synchronous HMAC and a constant-time comparison; writing
// stays React Router's own serialize, so both sides stay one format.
import { createCookie, type CookieOptions } from "react-router";
import crypto from "node:crypto";
import { safeEqual } from "~/utils/safe-equal.server";

export type SignedCookie = {
  readonly name: string;
  /**
   * What `createCookie(...).parse` resolves to, synchronously: null without
   * the cookie or with a bad signature, "" for an empty value, {} for a
   * signed value that is not JSON.
   */
  read(cookieHeader: string | null): unknown;
  serialize: ReturnType<typeof createCookie>["serialize"];
};

export function signedCookie(
  name: string,
  options: CookieOptions & { secrets: string[] },
): SignedCookie {
  const cookie = createCookie(name, options);
  const secrets = options.secrets;
  return {
    name,
    read(cookieHeader) {
      if (!cookieHeader) return null;
      const value = cookieValue(cookieHeader, name);
      if (value === undefined) return null;
      if (value === "") return "";
      for (const secret of secrets) {
        const unsigned = unsign(value, secret);
        if (unsigned !== null) return decodeData(unsigned);
      }
      return null;
    },
    serialize: cookie.serialize.bind(cookie),
  };
}

function unsign(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  const value = signed.slice(0, dot);
  let given: Buffer;
  try {
    // atob, as React Router decodes the signature (forgiving base64).
    given = Buffer.from(atob(signed.slice(dot + 1)), "latin1");
  } catch {
    return null;
  }
  const expected = crypto.createHmac("sha256", secret).update(value).digest();
  return safeEqual(given, expected) ? value : null;
}

/** React Router's decodeData: base64 of a Latin-1 escape of URI-encoded JSON. */
function decodeData(value: string): unknown {
  try {
    return JSON.parse(decodeURIComponent(escape(atob(value))));
  } catch {
    return {};
  }
}

/**
 * The value of the first cookie called `name`, as the `cookie` package's
 * parse gives it (pairs split at ";", the name and value trimmed of spaces
 * and tabs, the value URI-decoded when it holds a "%" and decodes).
 */
function cookieValue(header: string, name: string): string | undefined {
  let index = 0;
  const length = header.length;
  while (index < length) {
    const eq = header.indexOf("=", index);
    if (eq === -1) return undefined;
    let end = header.indexOf(";", index);
    if (end === -1) end = length;
    if (eq > end) {
      index = header.lastIndexOf(";", eq - 1) + 1;
      continue;
    }
    if (trimmed(header, index, eq) === name) {
      const raw = trimmed(header, eq + 1, end);
      if (raw.indexOf("%") === -1) return raw;
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
    index = end + 1;
  }
  return undefined;
}

function trimmed(s: string, start: number, end: number) {
  while (start < end && (s[start] === " " || s[start] === "\t")) start += 1;
  while (end > start && (s[end - 1] === " " || s[end - 1] === "\t")) end -= 1;
  return s.slice(start, end);
}
