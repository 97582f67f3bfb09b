// The /api door: JSON in, JSON out, the error body of docs/api.md. Route
// modules wrap their work in `api(...)` so every DomainError becomes the
// right status with the product's message and nothing unexpected leaks as a stack.
import type { z } from "zod";
import {
  DomainError,
  invalid,
  isDomainError,
  unwrapDomainError,
  type FieldErrors,
} from "~/utils/errors";
import { fieldErrorsOf, refusedText } from "~/utils/validation";

export function jsonError(
  status: number,
  error: string,
  fieldErrors?: FieldErrors,
  headers?: HeadersInit,
) {
  const body =
    status === 400 && fieldErrors ? { error, fieldErrors } : { error };
  return Response.json(body, { status, headers });
}

export function errorToResponse(thrown: unknown): Response {
  if (thrown instanceof Response) return thrown;
  const error = unwrapDomainError(thrown);
  if (isDomainError(error)) {
    const headers: Record<string, string> = {};
    if ("retryAfterSeconds" in error)
      headers["Retry-After"] = String(error.retryAfterSeconds);
    return jsonError(error.status, error.message, error.fieldErrors, headers);
  }
  console.error(error);
  return jsonError(500, "An unexpected error occurred. Please try again.");
}

/** Runs an API handler, turning thrown domain errors into JSON answers. */
export async function api(
  fn: () => Promise<Response> | Response,
): Promise<Response> {
  try {
    return await fn();
  } catch (error) {
    return errorToResponse(error);
  }
}

/** 405 in the API's JSON shape: a method this route does not answer. */
export function methodNotAllowed() {
  return jsonError(405, "Method not allowed");
}

/**
 * `api()` for an action that answers one method: any other is 405, before
 * the session is read.
 */
export function apiOnly(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  request: Request,
  fn: () => Promise<Response> | Response,
): Promise<Response> {
  return api(() => (request.method === method ? fn() : methodNotAllowed()));
}

export function isJsonContentType(request: Request) {
  const type = request.headers.get("Content-Type") ?? "";
  return /^application\/json\s*(;|$)/i.test(type);
}

/**
 * Reads a JSON body: 415 unless it is declared JSON, 400 for malformed JSON,
 * bytes that are not UTF-8, a body that is not an object, or text in it
 * that no input takes (a control character, a lone surrogate). An empty body
 * reads as {}. Its size was held to the route's limit (16 KB) while it
 * streamed in, before any of this (app/framework/request-handler.ts).
 */
export async function readJson(
  request: Request,
): Promise<Record<string, unknown>> {
  if (!isJsonContentType(request))
    throw new DomainError(415, "Content-Type must be application/json");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(
      await request.arrayBuffer(),
    );
  } catch {
    throw invalid("Request body must be valid JSON");
  }
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("Request body must be valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("Request body must be a JSON object");
  }
  // A control character anywhere in it: refused before any query reads it
  // (docs/decisions/1062-control-characters-refused-at-the-door.md).
  const refused = refusedText(Object.entries(value));
  if (refused) throw invalid(refused.message, refused.fieldErrors);
  return value as Record<string, unknown>;
}

/** Parses a JSON body with a schema: 400 with field errors on failure. */
export async function parseJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  message = "Invalid input",
): Promise<z.infer<S>> {
  const body = await readJson(request);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid(message, fieldErrorsOf(parsed.error));
  return parsed.data;
}
