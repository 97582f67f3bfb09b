// Who the user is, once per request (docs/decisions/archive/0811-session-through-router-middleware.md): the root
// middleware puts one lazy lookup in the request's context; every loader of
// that request shares it, and the next request looks again.
import { describe, expect, it } from "vitest";
import { RouterContextProvider } from "react-router";
import { registerUser } from "~/models/accounts/user.server";
import {
  createSession,
  getUser,
  requireApiUser,
  requireUser,
  revokeSessionToken,
  SIGNED_IN_USER_HEADER,
} from "~/models/accounts/session.server";
import { sessionMiddleware } from "./session.server";
import { isDomainError } from "~/utils/errors";

function requestWith(setCookie: string | null, url = "http://x/my-bets") {
  const cookie = setCookie ? setCookie.split(";")[0]! : "";
  return new Request(url, { headers: cookie ? { Cookie: cookie } : {} });
}

/**
 * Runs the middleware for `request`, then `work` as a loader would. `url` is
 * the location React Router hands the middleware: the request's own URL for
 * a document request, without `.data` and `_routes` for a data request.
 */
async function inRequest<T>(
  request: Request,
  work: (args: {
    request: Request;
    context: RouterContextProvider;
  }) => Promise<T>,
  url = new URL(request.url),
): Promise<T> {
  const context = new RouterContextProvider();
  let result: T | undefined;
  await sessionMiddleware(
    {
      request,
      url,
      context,
      params: {},
    } as unknown as Parameters<typeof sessionMiddleware>[0],
    async () => {
      result = await work({ request, context });
      return new Response(null);
    },
  );
  return result as T;
}

describe("the session middleware", () => {
  it("looks the user up once per request, for every loader of it", async () => {
    const user = await registerUser({
      username: "mw_once",
      email: "mw_once@example.com",
      password: "secret12",
    });
    const { token, setCookie } = await createSession(user.id);
    const request = requestWith(setCookie);

    const [first, second, third] = await inRequest(request, async (args) => {
      const a = getUser(args);
      const b = getUser(args);
      // the same lookup, not an equal one
      expect(a).toBe(b);
      return [await a, await b, await requireUser(args)];
    });
    expect(first?.id).toBe(user.id);
    expect(second).toBe(first);
    expect(third).toBe(first);

    // The next request looks again: a session ended in between is gone.
    await revokeSessionToken(token);
    const after = await inRequest(request, (args) => getUser(args));
    expect(after).toBeNull();
  });

  it("sends a visitor to /auth with the way back, and answers the API 401", async () => {
    const request = requestWith(null, "http://x/bet/7?tab=x");
    const redirect = await inRequest(request, (args) =>
      requireUser(args).then(
        () => null,
        (thrown: unknown) => thrown,
      ),
    );
    expect(redirect).toBeInstanceOf(Response);
    expect((redirect as Response).headers.get("Location")).toBe(
      "/auth?return_to=%2Fbet%2F7%3Ftab%3Dx",
    );

    const refusal = await inRequest(request, (args) =>
      requireApiUser(args).then(
        () => null,
        (thrown: unknown) => thrown,
      ),
    );
    expect(isDomainError(refusal) && refusal.status).toBe(401);
  });

  it("sends a visitor back to the page, not to the data request of a client navigation", async () => {
    // With v8_passThroughRequests a loader sees the raw request (docs/decisions/archive/0835-loaders-get-the-request-as-it-came.md).
    const request = requestWith(null, "http://x/bet/7.data?tab=x&_routes=a");
    const redirect = await inRequest(
      request,
      (args) =>
        requireUser(args).then(
          () => null,
          (thrown: unknown) => thrown,
        ),
      new URL("http://x/bet/7?tab=x"),
    );
    expect((redirect as Response).headers.get("Location")).toBe(
      "/auth?return_to=%2Fbet%2F7%3Ftab%3Dx",
    );
  });

  it("names on its answer who it was for when the request asked, and never looks up for it", async () => {
    // The service worker keeps pages per person by this header (docs/decisions/1001-offline-reading-of-kept-pages.md).
    const answerOf = async (request: Request, asks: boolean) => {
      const context = new RouterContextProvider();
      return (await sessionMiddleware(
        {
          request,
          url: new URL(request.url),
          context,
          params: {},
        } as unknown as Parameters<typeof sessionMiddleware>[0],
        async () => {
          if (asks) await getUser({ request, context });
          return new Response(null);
        },
      )) as Response;
    };
    const user = await registerUser({
      username: "mw_header",
      email: "mw_header@example.com",
      password: "secret12",
    });
    const { setCookie } = await createSession(user.id);

    const signedIn = await answerOf(requestWith(setCookie), true);
    expect(signedIn.headers.get(SIGNED_IN_USER_HEADER)).toBe(String(user.id));
    const visitor = await answerOf(requestWith(null), true);
    expect(visitor.headers.get(SIGNED_IN_USER_HEADER)).toBe("-");
    // A request that never asked (an avatar, /healthz) pays no lookup for it.
    const unasked = await answerOf(requestWith(setCookie), false);
    expect(unasked.headers.has(SIGNED_IN_USER_HEADER)).toBe(false);
  });

  it("is not there outside a request: a loader without the middleware fails loudly", async () => {
    const context = new RouterContextProvider();
    expect(() => getUser({ request: requestWith(null), context })).toThrow();
  });
});
