// "Every write is safe to repeat" (docs/product-rules.md#repeats), for both
// doors at once: a root middleware, so the pages and the /api routes share it
// and no route repeats it. A write sent with a key (the `Idempotency-Key`
// header, or a page form's hidden `idempotencyKey` field) by a signed-in
// person is claimed before it runs; its answer is kept and given again,
// unchanged and marked `Idempotent-Replayed: true`, to every repeat of it.
//
// What is kept: the answer of a request that succeeded (status < 400) or
// that changed something (its transaction stamped the claim, even when it
// then answered a refusal, like a rejection that found the window closed).
// A refusal that changed nothing frees the key, so the person can correct
// the form and send it again.
//
// Every write, keyed or not, runs with a record of what the synchronous
// standby confirmed (app/db/standby-confirmation.server.ts): a change of
// money or membership it did not confirm in time is answered 503 with
// Retry-After, though the change stays committed on the primary and its
// answer is kept; a repeat under the key is given that answer once the
// standby confirms it.
import type { MiddlewareFunction } from "react-router";
import { routeTraits } from "~/framework/route-pattern";
import { getUser } from "~/models/requests/request-user.server";
import { redirectWithToast } from "~/framework/toast.server";
import { errorToResponse } from "~/framework/api.server";
import { DatabaseUnavailableError, DomainError } from "~/utils/errors";
import { keepClaimAlive } from "./claim-lease.server";
import {
  bodyless,
  fingerprintOf,
  flavourOf,
  keptAnswerOf,
  readKey,
  replay,
  type Flavour,
} from "./kept-answers.server";
import {
  claimIdempotencyKey,
  confirmKeptAnswer,
  idempotencyEffectMade,
  keepIdempotentAnswer,
  releaseIdempotencyKey,
  stampIdempotencyEffect,
  withChangeWitness,
  withStandbyConfirmation,
  type StandbyConfirmation,
} from "~/models/requests/idempotency-keys.server";
import {
  INVALID_IDEMPOTENCY_KEY,
  isValidIdempotencyKey,
} from "~/domain/idempotency";

export const SENT_WITH_OTHER_VALUES =
  "This request was already sent with different values.";
export const STILL_PROCESSING = "This request is still being processed.";
export const ANSWER_LOST =
  "This request was already carried out, but its answer was lost. Reload to see the result.";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// A page's double tap: the second copy waits this long for the first.
const PAGE_WAIT_MS = 8_000;
export const idempotencyMiddleware: MiddlewareFunction<Response> = async (
  args,
  next,
) => {
  const { request, url } = args;
  // Signing in, out and up make or end the session a key belongs to: their
  // routes say so (`session` in their `handle`, app/framework/route-traits.ts).
  if (!WRITES.has(request.method) || routeTraits(url.pathname).session)
    return next();
  const flavour = flavourOf(request, url);
  try {
    return await withStandbyConfirmation(async (confirmation) => {
      const response = await guard(args, next, flavour, confirmation);
      if (confirmation.unconfirmed) throw unconfirmedByStandby();
      return response;
    });
  } catch (error) {
    // The guard's own reads and writes failed (the database out of reach,
    // its lock held past the wait): the /api answers as for any call, 503
    // JSON with Retry-After; a page's error goes on to the page's door
    // (app/pipeline/unavailable.server.ts), which answers it the same way.
    if (flavour === "api") return errorToResponse(error);
    throw error;
  }
};

/** A change the synchronous standby did not confirm in time: answered as the database out of reach. */
const unconfirmedByStandby = () =>
  new DatabaseUnavailableError(
    new Error("the synchronous standby did not confirm the change in time"),
  );

async function guard(
  args: Parameters<MiddlewareFunction<Response>>[0],
  next: () => Promise<Response>,
  flavour: Flavour,
  confirmation: StandbyConfirmation,
): Promise<Response> {
  const { request, url } = args;
  const sent = await readKey(request, flavour);
  if (!sent) return next();
  if (!isValidIdempotencyKey(sent.key))
    return flavour === "api"
      ? Response.json({ error: INVALID_IDEMPOTENCY_KEY }, { status: 400 })
      : new Response(INVALID_IDEMPOTENCY_KEY, {
          status: 400,
          headers: { "Content-Type": "text/plain; charset=utf-8" },
        });
  const user = await getUser(args);
  if (!user) return next(); // the route answers 401 or sends to /auth, as before
  const claim = {
    userId: user.id,
    key: sent.key,
    fingerprint: fingerprintOf(request.method, url, sent.body),
  };

  let outcome = await claimIdempotencyKey(claim);
  // A browser's own resend (a double tap without JavaScript) shows whatever
  // the last copy answers: it waits for the first to finish and repeats it.
  for (
    const until = Date.now() + PAGE_WAIT_MS;
    outcome.outcome === "busy" && flavour !== "api" && Date.now() < until;
    outcome = await claimIdempotencyKey(claim)
  )
    await new Promise((resolve) => setTimeout(resolve, 100));

  switch (outcome.outcome) {
    case "replay":
      await confirmKeptAnswer(outcome.id);
      return replay(outcome.answer, flavour, url);
    case "mismatch":
      return flavour === "api"
        ? refuse(flavour, url, 422, SENT_WITH_OTHER_VALUES)
        : answerAsRefusedForm(next, flavour, url);
    case "busy":
      return refuse(flavour, url, 409, STILL_PROCESSING, {
        "Retry-After": "1",
      });
    case "answer-lost":
      return refuse(flavour, url, 409, ANSWER_LOST);
  }

  const claimId = outcome.id;
  const lease = keepClaimAlive(claimId);
  let response: Response;
  try {
    response = await withChangeWitness(
      async (tx: Parameters<typeof stampIdempotencyEffect>[0]) =>
        stampIdempotencyEffect(tx, claimId),
      () => next(),
    );
  } catch (error) {
    lease.stop();
    await releaseUnlessChanged(claimId);
    throw error;
  }
  try {
    if (response.status >= 400) {
      const changed = await effectMadeOrUnknown(claimId);
      // Unknown (the database went away): neither kept nor freed, the
      // claim lapses with its lease and a repeat runs if nothing committed.
      if (changed === undefined) return response;
      if (!changed) {
        await releaseQuietly(claimId);
        return response;
      }
    }
    return await keepAnswer(claimId, response, flavour, confirmation);
  } finally {
    lease.stop();
  }
}

/** Whether the work behind the claim changed something, or undefined when the database cannot say. */
async function effectMadeOrUnknown(claimId: number) {
  try {
    return await idempotencyEffectMade(claimId);
  } catch {
    return undefined;
  }
}

/** Frees a claim whose work changed nothing; one the database cannot free now lapses with its lease. */
async function releaseUnlessChanged(claimId: number) {
  if ((await effectMadeOrUnknown(claimId)) === false)
    await releaseQuietly(claimId);
}

/** Frees a claim; when the database cannot, the claim lapses with its lease. */
async function releaseQuietly(claimId: number) {
  try {
    await releaseIdempotencyKey(claimId);
  } catch (error) {
    console.warn(`idempotency: claim ${claimId} left to its lease`, error);
  }
}

/**
 * Keeps the answer for repeats and sends this first one whole: its session
 * cookie (a sign-in after a reset, the cookie cleared by closing the
 * account) reaches the client, though no repeat will carry it. An answer
 * the database cannot keep now is still sent: the change happened, and a
 * repeat is told its answer was lost.
 */
async function keepAnswer(
  claimId: number,
  response: Response,
  flavour: Flavour,
  confirmation: StandbyConfirmation,
): Promise<Response> {
  const body = Buffer.from(await response.arrayBuffer());
  try {
    await keepIdempotentAnswer(claimId, keptAnswerOf(response, flavour, body), {
      moneyOrMembership: confirmation.moneyOrMembership,
    });
  } catch (error) {
    console.warn(`idempotency: the answer of claim ${claimId} not kept`, error);
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(bodyless(response.status, body) ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * A page form sent again under its key with other values
 * (docs/product-rules.md#repeats) is answered by its own route, as any
 * refused form: 422, the page with what was typed, the message, and a fresh
 * key (a page drawn anew draws a new seed; a script's form draws one after
 * any answer). The route runs with a witness that refuses instead of
 * recording: its first transaction that would change something throws
 * SENT_WITH_OTHER_VALUES just before it commits, so it rolls back, and the
 * route answers that through `formFailure` like any model's refusal. The
 * claim stays the first request's. Only `bookkeeping` transactions (a
 * limit's count, a session's touch) commit, as they would for any refusal.
 */
async function answerAsRefusedForm(
  next: () => Promise<Response>,
  flavour: Flavour,
  url: URL,
) {
  let stopped = false;
  const response = await withChangeWitness(() => {
    stopped = true;
    throw sentWithOtherValues();
  }, next);
  // The route took the refusal as a refused form, or never tried to change
  // anything and refused the form itself (a field it found wrong).
  if (response.status >= 400 && response.status < 500) return response;
  if (!stopped) return response; // it answered without changing anything
  // A route that passed over the refusal, or let it escape to its error
  // page: nothing was changed, say so as before.
  return refuse(flavour, url, 422, SENT_WITH_OTHER_VALUES);
}

const sentWithOtherValues = () =>
  new DomainError(422, SENT_WITH_OTHER_VALUES, undefined, "Not sent again", {
    code: "sent_with_other_values",
  });

/** A repeat that cannot be answered with the kept answer: JSON for /api, back to the page with the message for pages. */
async function refuse(
  flavour: Flavour,
  url: URL,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  if (flavour === "api")
    return Response.json({ error: message }, { status, headers });
  return redirectWithToast(
    url.pathname,
    { title: "Not sent again", description: message, type: "error" },
    { status: 303, headers },
  );
}
