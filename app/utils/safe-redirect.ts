// Only same-origin relative paths may be used as a redirect target.
// "//evil.com" and "/\evil.com" are protocol-relative in browsers and are refused.
export function safeRedirect(
  to: FormDataEntryValue | string | null | undefined,
  fallback = "/",
): string {
  if (typeof to !== "string" || to.length === 0) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\"))
    return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\\]/.test(to)) return fallback;
  return to;
}
