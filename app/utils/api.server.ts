// The /api door: JSON in, JSON out, the error body of DESIGN §3. Route
// modules wrap their work in `api(...)` so every DomainError becomes the
// right status with SPEC's message and nothing unexpected leaks as a stack.
import type { z } from "zod";
import {
  DomainError,
  invalid,
  isDomainError,
  type FieldErrors,
} from "./errors";
import { fieldErrorsOf } from "./validation";
import { getUser } from "./session.server";
import type { User } from "~/db/schema";

export const JSON_BODY_LIMIT = 16_384;

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

export function errorToResponse(error: unknown): Response {
  if (error instanceof Response) return error;
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

export async function requireApiUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (!user) throw new DomainError(401, "Authentication required");
  return user;
}

export function isJsonContentType(request: Request) {
  const type = request.headers.get("Content-Type") ?? "";
  return /^application\/json\s*(;|$)/i.test(type);
}

/**
 * Reads a JSON body: 415 unless it is declared JSON, 413 past 16 KB (counted
 * while streaming, before parsing), 400 for malformed JSON or a body that is
 * not an object. An empty body reads as {}.
 */
export async function readJson(
  request: Request,
): Promise<Record<string, unknown>> {
  if (!isJsonContentType(request))
    throw new DomainError(415, "Content-Type must be application/json");
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > JSON_BODY_LIMIT)
    throw new DomainError(413, "Request body is too large (16 KB at most)");
  const text = await readLimitedText(request, JSON_BODY_LIMIT);
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
  return value as Record<string, unknown>;
}

async function readLimitedText(
  request: Request,
  limit: number,
): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new DomainError(413, "Request body is too large (16 KB at most)");
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(
    Buffer.concat(chunks),
  );
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

/** Route ids are decimal integers; anything else is a 404, not a 500. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}
