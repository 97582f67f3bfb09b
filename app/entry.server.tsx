import { Writable } from "node:stream";
import type { EntryContext, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import stylesheet from "./app.css?url";
import { InlineCssProvider } from "~/framework/inline-css";
import { readBuiltStylesheet } from "~/framework/inline-css.server";
import {
  withModuleAfterFirstPaint,
  withoutScriptPreloads,
} from "~/framework/script-preloads.server";
import { NonceProvider } from "~/framework/nonce";
import { withMatchedRoutesOnly } from "~/framework/matched-routes.server";
import { nonceContext } from "~/framework/request-context.server";
import { encodeDocument } from "~/utils/compression.server";
import { startBackgroundJobs } from "~/models/cross-domain/background-work.server";
import { noteIfUnavailable } from "~/pipeline/unavailable.server";

export const streamTimeout = 5_000;

startBackgroundJobs();

// React Router's own logging, kept, and a note for the root middleware when
// the error was the database out of reach (app/pipeline/unavailable.server.ts).
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (noteIfUnavailable(error, request)) {
    console.warn(`database unavailable: ${new URL(request.url).pathname}`);
    return;
  }
  // A request no route can answer (a POST, PUT, PATCH or DELETE to a page
  // without an action: React Router's own 405) is the sender's mistake,
  // answered as such: no stack in the log.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // As React Router's default: an error response it made carries the cause.
  const cause =
    isRouteErrorResponse(error) && "error" in error ? error.error : undefined;
  console.error(cause ?? error);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }
  const nonce = loadContext.get(nonceContext);

  return new Promise((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );
    // Every page is rendered whole before it is sent: loaders are synchronous
    // SQLite reads, there is nothing to stream, and crawlers and no-JS
    // browsers get the complete document with its final status.
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <InlineCssProvider value={readBuiltStylesheet(stylesheet)}>
          <ServerRouter
            context={withMatchedRoutesOnly(routerContext)}
            url={request.url}
            nonce={nonce}
          />
        </InlineCssProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          // The document is sent as one piece: every write into compression
          // is a zlib call of its own (a page came out of React in several
          // chunks, measured in docs/decisions/archive/0810-middleware-and-render-cpu.md), and the head's
          // preloads are taken out in one pass.
          const chunks: Buffer[] = [];
          const whole = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              resolve(
                new Response(
                  encodeDocument(
                    withModuleAfterFirstPaint(
                      withoutScriptPreloads(
                        Buffer.concat(chunks).toString("utf8"),
                      ),
                    ),
                    request.headers.get("Accept-Encoding"),
                    responseHeaders,
                  ),
                  { headers: responseHeaders, status: responseStatusCode },
                ),
              );
              callback();
            },
          });
          whole.on("error", reject);
          pipe(whole);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          console.error(error);
        },
      },
    );
  });
}
