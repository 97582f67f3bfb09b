// A large body's turn within the upload budget, at the Express door
// (./request-handler.ts): what the body will weigh, and the wait for its
// turn, left the moment its sender goes away. The budget itself is
// ./body-admission.ts (docs/decisions/1140-uploads-admitted-by-a-byte-budget.md).
import type {
  Request as ExpressRequest,
  Response as ExpressResponse,
} from "express";
import { setting } from "~/utils/env.server";
import { BodyAdmission } from "./body-admission";

/** From this size on, a body waits for its turn within the upload budget. */
const ADMITTED_FROM = 1024 * 1024;

let admission: BodyAdmission | undefined;
export function uploadAdmission() {
  admission ??= new BodyAdmission(
    setting("UPLOAD_BUDGET_BYTES"),
    setting("UPLOAD_WAIT_MS"),
  );
  return admission;
}

/**
 * What a body will hold: its declared length, or for a chunked body its
 * route's limit (the most it may grow to); 0 for a body too small to wait
 * for a turn, or declared past its limit (refused before a byte is read).
 */
export function admissionWeight(req: ExpressRequest, limit: number) {
  const declared = req.get("Content-Length");
  const bytes = declared === undefined ? limit : Number(declared);
  if (!Number.isFinite(bytes) || bytes > limit) return 0;
  return bytes >= ADMITTED_FROM ? bytes : 0;
}

/**
 * Waits for the body's turn. Its socket is not read meanwhile; a sender
 * that goes away leaves the queue (Node notices a closed connection while
 * it still reads the socket, that is before the kernel's buffer fills;
 * past that, when the wait ends and the 503 cannot be written).
 */
export async function admitBody(
  req: ExpressRequest,
  res: ExpressResponse,
  bytes: number,
) {
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  if (req.destroyed || res.destroyed) gone.abort();
  res.on("close", onClose);
  req.on("close", onClose);
  try {
    return await uploadAdmission().admit(bytes, gone.signal);
  } finally {
    res.off("close", onClose);
    req.off("close", onClose);
  }
}
