// A one-shot flash message in a cookie: set on a redirect, read and cleared
// by the next page. It renders as plain HTML first (a polite live region), so
// it works without JavaScript (docs/product-rules.md#forms-and-messages).
import { z } from "zod";
import { isProduction } from "~/utils/env.server";
import { sessionSecret } from "~/utils/env-start.server";
import { signedCookie } from "~/framework/signed-cookie.server";
import { pageWords } from "~/framework/page-words.server";

export const ToastSchema = z.object({
  id: z.string(),
  title: z.string().max(200),
  description: z.string().max(500).optional(),
  type: z.enum(["success", "error", "info"]).default("success"),
});
export type Toast = z.infer<typeof ToastSchema>;

const toastCookie = signedCookie("fairshake_toast", {
  httpOnly: true,
  sameSite: "lax",
  secure: isProduction,
  path: "/",
  maxAge: 60,
  secrets: [sessionSecret()],
});

export async function toastCookieHeader(
  toast: Omit<Toast, "id" | "type"> & { type?: Toast["type"] },
) {
  // Written in English by a route that has not its own words yet: the
  // page's language when the catalogs have them (./page-words.server.ts).
  const value: Toast = {
    id: crypto.randomUUID(),
    type: "success",
    ...toast,
    title: pageWords(toast.title),
    ...(toast.description === undefined
      ? {}
      : { description: pageWords(toast.description) }),
  };
  return toastCookie.serialize(value);
}

export async function readToast(
  request: Request,
): Promise<{ toast: Toast | null; clear: string | null }> {
  const raw = toastCookie.read(request.headers.get("Cookie"));
  if (!raw) return { toast: null, clear: null };
  const parsed = ToastSchema.safeParse(raw);
  const clear = await toastCookie.serialize("", {
    maxAge: 0,
    expires: new Date(0),
  });
  return { toast: parsed.success ? parsed.data : null, clear };
}

/** A redirect carrying a toast and any other cookies. */
export async function redirectWithToast(
  to: string,
  toast: Omit<Toast, "id" | "type"> & { type?: Toast["type"] },
  init: { headers?: HeadersInit; status?: number } = {},
) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookieHeader(toast));
  headers.set("Location", to);
  return new Response(null, { status: init.status ?? 302, headers });
}
