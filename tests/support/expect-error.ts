// The one check that a model refused with a DomainError of a given status
// (and message); the models are asynchronous, so it is awaited.
import { expect } from "vitest";
import { DomainError } from "~/utils/errors";

function check(error: unknown, status: number, message?: string) {
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).status).toBe(status);
  if (message) expect((error as DomainError).message).toBe(message);
  return error as DomainError;
}

/** `fn` must throw or reject with a DomainError with `status` (and `message`). */
export async function expectRejection(
  fn: () => unknown,
  status: number,
  message?: string,
): Promise<DomainError> {
  try {
    await fn();
  } catch (error) {
    return check(error, status, message);
  }
  throw new Error("expected a domain error");
}
