import { errorsOf } from "~/components/forms";
import { describe, expect, it, vi } from "vitest";
import {
  conflict,
  DomainError,
  forbidden,
  invalid,
  notFound,
  refused,
} from "~/utils/errors";
import {
  formFailure,
  formReply,
  page,
  pageError,
  pageFailure,
  pageFailureOr,
} from "./page.server";
import { TooManyRequestsError } from "~/utils/rate-limit.server";

// data() answers are plain objects with `data` and `init`.
type Answer = { data: unknown; init: ResponseInit | null };
const answer = (value: unknown) => value as Answer;

describe("the page door: a domain error's code and field as a page answers them", () => {
  it("gives every status a default code, and keeps a precise one", () => {
    expect(notFound("gone").code).toBe("not_found");
    expect(forbidden("no").code).toBe("forbidden");
    expect(conflict("taken").code).toBe("conflict");
    expect(invalid("bad").code).toBe("invalid");
    expect(new DomainError(401, "who?").code).toBe("unauthenticated");
    expect(new TooManyRequestsError("slow", 5).code).toBe("too_many_requests");
    const taken = conflict("Username already taken", undefined, {
      code: "username_taken",
      field: "username",
    });
    expect(pageFailure(taken)).toMatchObject({
      status: 409,
      code: "username_taken",
      field: "username",
      message: "Username already taken",
      fieldErrors: undefined,
    });
    expect(
      refused({ status: 403, message: "Not yours", title: "Cannot edit" }),
    ).toMatchObject({ status: 403, code: "forbidden", title: "Cannot edit" });
  });

  it("places the message beside the field at fault, else at the form level", () => {
    const taken = conflict("Email already registered", undefined, {
      code: "email_taken",
      field: "email",
    });
    // What a form reads from a refusal (formFailure's body) to place it.
    const placed = (error: unknown) => {
      const f = pageFailure(error);
      return errorsOf({
        message: f.message,
        fieldErrors: f.fieldErrors ?? {},
        field: f.field,
      });
    };
    expect(placed(taken)).toEqual({
      email: ["Email already registered"],
    });
    expect(placed(new DomainError(401, "Wrong"))).toEqual({
      "": ["Wrong"],
    });
    const fields = invalid("Fix them", { password: ["Too short"] });
    expect(placed(fields)).toEqual({
      password: ["Too short"],
    });
  });

  it("carries Retry-After for rate limits", () => {
    const failure = pageFailure(new TooManyRequestsError("Slow down", 42));
    expect(failure.status).toBe(429);
    expect(failure.headers).toEqual({ "Retry-After": "42" });
    expect(pageFailure(conflict("x")).headers).toBeUndefined();
  });

  it("rethrows anything that is not a domain error", () => {
    const bug = new TypeError("boom");
    expect(() => pageFailure(bug)).toThrow(bug);
    expect(() => formFailure(bug, "Failed")).toThrow(bug);
    expect(() => pageError(bug)).toThrow(bug);
    expect(() =>
      page(() => {
        throw bug;
      }),
    ).toThrow(bug);
  });

  it("words a bug itself only where a page asks to (pageFailureOr): logged, 500", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const bug = new TypeError("boom");
    const failure = pageFailureOr(bug, { message: "Something went wrong" });
    expect(failure).toEqual({
      status: 500,
      code: "internal",
      message: "Something went wrong",
    });
    expect(logged).toHaveBeenCalledWith(bug);
    expect(pageFailureOr(conflict("Paid"), { message: "x" })).toMatchObject({
      status: 409,
      message: "Paid",
    });
    expect(logged).toHaveBeenCalledTimes(1);
    const reply = answer(formReply(failure, "Payment error"));
    expect(reply.init?.status).toBe(500);
    expect(reply.data).toMatchObject({
      title: "Payment error",
      message: "Something went wrong",
    });
    logged.mockRestore();
  });

  it("answers a form with the status, the title and the field errors", () => {
    const titled = answer(
      formFailure(forbidden("Not yours", "Cannot edit"), "Failed"),
    );
    expect(titled.init?.status).toBe(403);
    expect(titled.data).toEqual({
      ok: false,
      status: 403,
      title: "Cannot edit",
      message: "Not yours",
      fieldErrors: {},
    });
    const plain = answer(
      formFailure(invalid("Pick one", { winnerId: ["Pick one"] }), "No winner"),
    );
    expect(plain.init?.status).toBe(400);
    expect(plain.data).toMatchObject({
      title: "No winner",
      fieldErrors: { winnerId: ["Pick one"] },
    });
  });

  it("answers a plain form the same way, echoing what the route gives back", () => {
    const formLevel = answer(
      formFailure(new DomainError(401, "Wrong"), "Please wait", {
        login: "ann",
      }),
    );
    expect(formLevel.init?.status).toBe(401);
    expect(formLevel.data).toEqual({
      ok: false,
      status: 401,
      title: "Please wait",
      message: "Wrong",
      fieldErrors: {},
      login: "ann",
    });
    const worded = answer(
      formFailure(invalid("Fix", { newPassword: ["Short"] }), (f) =>
        f.fieldErrors ? "Validation Error" : "Failed",
      ),
    );
    expect(worded.data).toMatchObject({
      title: "Validation Error",
      fieldErrors: { newPassword: ["Short"] },
    });
  });

  it("throws a loader's refusal for the error boundary, with a route's own payload per status", async () => {
    const thrown = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return answer(error);
      }
      throw new Error("nothing thrown");
    };
    const plain = thrown(() =>
      page(() => {
        throw notFound("This bet could not be found.");
      }),
    );
    expect(plain.init?.status).toBe(404);
    expect(plain.data).toBe("This bet could not be found.");

    const payloads = {
      404: () => ({
        title: "Bet not found",
        message: "No bet with that code.",
      }),
      429: (f: { message: string }) => ({
        title: "Too many tries",
        message: f.message,
      }),
    };
    const missing = thrown(() =>
      page(() => {
        throw notFound();
      }, payloads),
    );
    expect(missing.data).toEqual({
      title: "Bet not found",
      message: "No bet with that code.",
    });
    const slow = thrown(() =>
      page(() => {
        throw new TooManyRequestsError("Wait a minute", 60);
      }, payloads),
    );
    expect(slow.init?.status).toBe(429);
    expect(new Headers(slow.init?.headers).get("Retry-After")).toBe("60");
    expect(slow.data).toEqual({
      title: "Too many tries",
      message: "Wait a minute",
    });

    expect(page(() => 7)).toBe(7);
    await expect(
      page(async () => {
        throw forbidden("No");
      }),
    ).rejects.toMatchObject({
      init: { status: 403 },
      data: "No",
    });
  });
});
