// Sends a body the way an attacker would: as fast as the server reads it,
// declared or chunked, and reports the answer. The server must answer while
// the body is still arriving (it stops reading past the route's limit); a
// server that reads on regardless is caught by the `sentLimit` tripwire.
import http from "node:http";

export type StreamedAnswer = {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  sentBytes: number;
};

export function postStreamed(
  baseUrl: string,
  path: string,
  {
    headers = {},
    first = "",
    fill = 0x61,
    declaredLength,
    sentLimit = 64 * 1024 * 1024,
  }: {
    headers?: Record<string, string>;
    /** The body's first bytes (a form field's name, a multipart head). */
    first?: string;
    /** The byte repeated after them. */
    fill?: number;
    /** Send a Content-Length of this many bytes instead of chunking. */
    declaredLength?: number;
    /** Past this many bytes sent the server is reading too much. */
    sentLimit?: number;
  } = {},
): Promise<StreamedAnswer> {
  let done = false;
  let sent = 0;
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, baseUrl),
      {
        method: "POST",
        headers: {
          ...headers,
          ...(declaredLength === undefined
            ? { "Transfer-Encoding": "chunked" }
            : { "Content-Length": String(declaredLength) }),
        },
      },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => {
          done = true;
          req.destroy();
          resolve({
            status: res.statusCode ?? 0,
            body,
            headers: res.headers,
            sentBytes: sent,
          });
        });
      },
    );
    // Writing may fail once the server has answered: that is the point.
    req.on("error", (error) => {
      if (!done) setTimeout(() => !done && reject(error), 2_000);
    });
    req.write(first);
    sent += Buffer.byteLength(first);
    const chunk = Buffer.alloc(64 * 1024, fill);
    const pump = () => {
      while (!done) {
        if (sent > sentLimit) {
          reject(new Error(`the server read more than ${sentLimit} bytes`));
          req.destroy();
          return;
        }
        if (declaredLength !== undefined && sent >= declaredLength) return;
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
}
