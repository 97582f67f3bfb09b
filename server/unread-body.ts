// What happens to the part of a request body nobody read: a 413 refusal, or a
// handler that answered early (a logout form posted with a large body).
//
// Left on a kept-alive connection, the unread rest would stall the next
// request sent on it, so a little is read and thrown away: up to
// UNREAD_DRAIN_BYTES, enough for any honest form, and the connection lives
// on. Past that the sender is streaming something large we have already
// refused, and reading it would let anyone keep the server busy for as long
// as they care to send. The connection is then closed the polite way
// (RFC 9112 §9.6): our side half-closes at once, so the answer already sent
// is followed by an end of stream, reading stops, and the socket is torn down
// LINGER_MS later. Closing at once, with unread bytes in the kernel's queue,
// would send a reset that can destroy the answer before the client reads it.
import type { Request, Response } from "express";

export const UNREAD_DRAIN_BYTES = 256 * 1024;
const LINGER_MS = 2_000;

export function discardUnreadBodyAfterAnswer(req: Request, res: Response) {
  res.on("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    let drained = 0;
    const onData = (chunk: Buffer) => {
      drained += chunk.byteLength;
      if (drained <= UNREAD_DRAIN_BYTES) return;
      req.off("data", onData);
      req.pause();
      closeAfterLinger(req);
    };
    req.on("data", onData);
    req.resume();
  });
}

function closeAfterLinger(req: Request) {
  const socket = req.socket;
  if (socket.destroyed) return;
  socket.end();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
