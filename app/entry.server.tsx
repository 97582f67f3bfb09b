import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import stylesheet from "./app.css?url";
import { InlineCssProvider } from "~/utils/inline-css";
import { readBuiltStylesheet } from "~/utils/inline-css.server";
import { withoutScriptPreloads } from "~/utils/script-preloads.server";
import { NonceProvider } from "~/utils/nonce";
import { startBackgroundJobs } from "~/models/background-work.server";

export const streamTimeout = 5_000;

startBackgroundJobs();

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }
  const nonce = typeof loadContext?.nonce === "string" ? loadContext.nonce : "";

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
            context={routerContext}
            url={request.url}
            nonce={nonce}
          />
        </InlineCssProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(withoutScriptPreloads()).pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
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
