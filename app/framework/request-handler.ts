// The one place where a Node request becomes a Fetch Request for React
// Router. Every body is read here, within the limit of the route it is
// addressed to, before any route sees it: a body past its limit is refused
// with 413 while it streams and never buffered whole, whichever spelling of
// the path reached the route (the match is React Router's own, made once per
// request in app/framework/route-pattern.ts and shared with logs and metrics).
import { writeReadableStreamToWritable } from "@react-router/node";
import type {
  NextFunction,
  Request as ExpressRequest,
  Response as ExpressResponse,
} from "express";
import {
  createRequestHandler,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { defaultBodyLimit } from "~/framework/body-limits";
import { collectGarbage, type AdmissionTicket } from "./body-admission";
import { admissionWeight, admitBody, uploadAdmission } from "./upload-turns";
import { safeRedirect } from "~/utils/safe-redirect";
import { sendPlainPage } from "./plain-page";
import {
  dataRequestPage,
  requestLeafRoute,
  requestRouteTraits,
  useRouteTable,
} from "./route-pattern";
import { splitBuild } from "./route-split";

type BuildSource = ServerBuild | (() => Promise<ServerBuild>);
type BodyLimit = { bytes: number; message: string };

const BODYLESS = new Set(["GET", "HEAD"]);

export function createAppHandler({
  build,
  mode,
  getLoadContext,
}: {
  build: BuildSource;
  mode: string;
  getLoadContext: (
    req: ExpressRequest,
    res: ExpressResponse,
  ) => RouterContextProvider;
}) {
  // Production: the pages and the API each get a handler over their own
  // routes (app/framework/route-split.ts). Development reloads the build on every
  // change, so it keeps one handler over the whole table.
  const split = typeof build === "function" ? null : splitBuild(build);
  const handlePages = createRequestHandler(split ? split.pages : build, mode);
  const handleApi = split ? createRequestHandler(split.api, mode) : handlePages;
  return async (
    req: ExpressRequest,
    res: ExpressResponse,
    next: NextFunction,
  ) => {
    if (
      split &&
      BODYLESS.has(req.method) &&
      req.path === split.pagesManifest.url
    )
      return sendPagesManifest(res, split.pagesManifest.source);
    try {
      // The route table the traits are read from: set once in production
      // (server/serve.ts), again here whenever development rebuilds.
      if (typeof build === "function") useRouteTable((await build()).routes);
      let body: ReadableStream<Uint8Array> | undefined;
      let ticket: AdmissionTicket | undefined;
      try {
        if (!BODYLESS.has(req.method)) {
          const limit = bodyLimitFor(req);
          const weight = admissionWeight(req, limit.bytes);
          if (weight > 0) {
            const admitted = await admitBody(req, res, weight);
            if (admitted === "gone") return;
            if (admitted === "busy") return refuseBusy(req, res);
            ticket = admitted;
          }
          const read = await readBodyWithin(req, limit.bytes);
          if (read === "aborted") return;
          if (read === "too-large") return refuseTooLarge(req, res, limit);
          body = streamOf(read);
        }
        const controller = new AbortController();
        res.on("close", () => {
          if (!res.writableFinished) controller.abort();
        });
        const request = new Request(requestUrl(req), {
          method: req.method,
          headers: requestHeaders(req),
          body,
          signal: controller.signal,
          ...(body && { duplex: "half" }),
        });
        const handle = split?.isApiRoute(requestLeafRoute(req))
          ? handleApi
          : handlePages;
        await sendResponse(
          res,
          await handle(request, getLoadContext(req, res)),
        );
      } finally {
        // The route is done with the body (a photo is re-encoded into new
        // bytes by now): its place goes to the next upload, and its bytes
        // go back now rather than at some later collection.
        if (ticket) {
          ticket.release();
          collectGarbage("major");
        }
      }
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The pages' route manifest (app/framework/route-split.ts), named by its
 * content's hash and cached as the files under /assets/ are; `send` answers
 * HEAD and a matching If-None-Match itself.
 */
function sendPagesManifest(res: ExpressResponse, source: string) {
  res
    .type("text/javascript")
    .set("Cache-Control", "public, max-age=31536000, immutable")
    .send(source);
}

// --- Which limit --------------------------------------------------------------

/** A single-fetch request (`/auth.data`, `/_.data`) names its page. */
function pagePath(pathname: string) {
  return dataRequestPage(pathname) ?? pathname;
}

function bodyLimitFor(req: ExpressRequest): BodyLimit {
  const { bodyLimit, multipart } = requestRouteTraits(req);
  const type = req.get("Content-Type");
  // A route that takes JSON or multipart (a message, with or without its
  // photos) gives its large limit to the multipart body only: its JSON is
  // held to the JSON limit like every other /api call's.
  const own =
    multipart && !/^multipart\/form-data\s*;/i.test(type ?? "")
      ? undefined
      : bodyLimit;
  return own ?? defaultBodyLimit(type);
}

// --- Admitting a large body (./upload-turns.ts) ----------------------------

export const UPLOADS_BUSY =
  "The server is busy with other uploads. Please try again in a moment.";

function refuseBusy(req: ExpressRequest, res: ExpressResponse) {
  const seconds = Math.max(1, Math.ceil(uploadAdmission().maxWaitMs / 1000));
  res.status(503).set("Retry-After", String(seconds));
  if (wantsJson(req)) res.json({ error: UPLOADS_BUSY });
  else
    sendPlainPage(res, {
      title: "Busy",
      message: UPLOADS_BUSY,
      back: { href: safeRedirect(pagePath(req.path), "/"), label: "Go back" },
    });
}

// --- Reading the body within its limit ---------------------------------------

/**
 * The chunks as read, handed to the Request as a stream rather than as one
 * joined Buffer: a Request made from bytes copies them (the Fetch standard),
 * so a joined body cost two copies of every upload before any route read it,
 * and a route that parses its own body (`readUploadedFile`) joins it once
 * (docs/decisions/archive/0820-upload-memory-one-copy.md). `request.formData()` and `.text()` read it as
 * before; the chunks go with the stream once it is read.
 */
function streamOf(chunks: Buffer[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Emptied as queued: once read, a chunk is held by nothing here (a
      // queued upload would otherwise keep its chunks besides its bytes).
      for (const chunk of chunks.splice(0)) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** From this declared size on, a body is read into one buffer (an upload). */
const ONE_PIECE_FROM = 1024 * 1024;
/** How many bytes of a one-piece body arrive between collections of its chunks. */
const COLLECT_CHUNKS_EVERY = 4 * 1024 * 1024;

function readBodyWithin(
  req: ExpressRequest,
  limit: number,
): Promise<Buffer[] | "too-large" | "aborted"> {
  // A declared length past the limit is refused before a byte is read.
  const declared = Number(req.get("Content-Length") ?? "0");
  if (declared > limit) return Promise.resolve("too-large");
  // Gone while its body waited for its turn: no event would come.
  if (req.destroyed) return Promise.resolve("aborted");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let collectedAt = 0;
    // A large declared body (photos) is copied into one buffer of its size
    // as it arrives: each chunk is let go at once, and a route that joins
    // the body (`readUploadedParts`) gets that one piece without a second
    // copy (docs/decisions/archive/1120-photo-upload-memory.md). Its pages
    // are the kernel's only as the bytes are written: a sender that
    // declares 40 MB and sends nothing costs address space, not memory.
    const whole =
      declared >= ONE_PIECE_FROM ? Buffer.allocUnsafeSlow(declared) : null;
    const finish = (outcome: Buffer[] | "too-large" | "aborted") => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        // Read nothing more until the refusal is out: a stream left flowing
        // would go on reading (and discarding) at the sender's pace. What
        // is left is dealt with after the answer (server/unread-body.ts).
        req.pause();
        finish("too-large");
      } else if (whole && size <= whole.byteLength) {
        whole.set(chunk, size - chunk.byteLength);
        // The chunks copied so far are garbage: collected as it arrives,
        // not held beside the body until V8 would look.
        if (size - collectedAt >= COLLECT_CHUNKS_EVERY) {
          collectedAt = size;
          collectGarbage("minor");
        }
      } else chunks.push(chunk);
    };
    const onEnd = () =>
      finish(
        whole
          ? [whole.subarray(0, Math.min(size, whole.byteLength)), ...chunks]
          : chunks,
      );
    const onClose = () => {
      if (!req.complete) finish("aborted");
    };
    const onError = (error: Error) => {
      req.off("data", onData);
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

function refuseTooLarge(
  req: ExpressRequest,
  res: ExpressResponse,
  limit: BodyLimit,
) {
  res.status(413);
  if (wantsJson(req)) res.json({ error: limit.message });
  else
    sendPlainPage(res, {
      title: "Too large",
      message: limit.message,
      back: { href: safeRedirect(pagePath(req.path), "/"), label: "Go back" },
    });
}

function wantsJson(req: ExpressRequest) {
  return (
    /^\/api\//i.test(req.path) ||
    /^application\/json/i.test(req.get("Content-Type") ?? "")
  );
}

// --- Node ⇄ Fetch -----------------------------------------------------------

function requestUrl(req: ExpressRequest) {
  // Only the host's name and port, never a path smuggled into Host.
  const host = (req.get("Host") ?? "localhost").split(/[\\/?#@\s]/)[0];
  return new URL(req.originalUrl, `${req.protocol}://${host || "localhost"}`);
}

function requestHeaders(req: ExpressRequest) {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.startsWith(":")) continue;
    try {
      headers.append(name, raw[i + 1]!);
    } catch {
      // A header value the Fetch API refuses is dropped, not a 500.
    }
  }
  return headers;
}

async function sendResponse(res: ExpressResponse, response: Response) {
  if (res.destroyed) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) {
    // A route's own header replaces the server's default of the same name
    // (an avatar's CSP) instead of sending both.
    if (name === "set-cookie") res.append(name, value);
    else res.setHeader(name, value);
  }
  // Every page and API answer depends on the session (the root loader reads
  // it): nothing may keep a copy unless the route says otherwise.
  if (!response.headers.has("Cache-Control"))
    res.setHeader("Cache-Control", "private, no-store");
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
