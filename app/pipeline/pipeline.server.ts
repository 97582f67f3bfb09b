// What every request passes before its route, in this order — the one place
// the order is written (app/root.tsx hands it to React Router as the root's
// middleware, so pages and the /api alike pass it):
//
// 0. control text: a control character (a NUL) in the path or query is
//    refused before anything reads the database (control-text.server.ts);
// 1. regions: outside the primary region, a request that may write is sent
//    to the primary region, and a read that would be stale for this person
//    is too — before anything is read or claimed (regions.server.ts);
// 2. unavailable: a page that could not reach the database answers 503 with
//    Retry-After, not 500 (unavailable.server.ts);
// 3. session: who the request is from, looked up once when asked
//    (session.server.ts);
// 4. page language: the words the server writes into a page's answer (a
//    refused form, a toast) follow the page's language; the /api stays
//    English (page-language.server.ts);
// 5. the idempotency guard: a keyed write is claimed once, its answer kept
//    and given again to every repeat, the claim's lease renewed while it
//    runs (idempotency-guard.server.ts, claim-lease.server.ts).
//
// The stores these steps read and write (sessions, idempotency keys, WAL
// positions, the request's user) are models; the pipeline only orders them.
import type { MiddlewareFunction } from "react-router";
import { controlTextMiddleware } from "./control-text.server";
import { idempotencyMiddleware } from "./idempotency-guard.server";
import { regionMiddleware } from "./regions.server";
import { sessionMiddleware } from "./session.server";
import { pageLanguageMiddleware } from "./page-language.server";
import { unavailableMiddleware } from "./unavailable.server";

export const pipeline: readonly MiddlewareFunction<Response>[] = [
  controlTextMiddleware,
  regionMiddleware,
  unavailableMiddleware,
  sessionMiddleware,
  pageLanguageMiddleware,
  idempotencyMiddleware,
];
