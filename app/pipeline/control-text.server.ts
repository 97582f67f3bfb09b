// A control character in a request's path or query (a NUL: `%00`) is
// refused here, the pipeline's first step (pipeline.server.ts), before anything reads the
// database: PostgreSQL refuses a NUL in text where SQLite would look it up,
// so both engines must never be handed one
// (docs/decisions/1062-control-characters-refused-at-the-door.md). The
// bodies are the readers' (`readJson`, `readFormData`). A path parameter no
// route could ever name is a 404, as any lookup that finds nothing; a query
// is the sender's input: 400 with the message. Parameters are read as React
// Router decoded them, so every spelling of a path is checked as routed.
import { data, type MiddlewareFunction } from "react-router";
import { jsonError } from "~/framework/api.server";
import { refusedText } from "~/utils/validation";

const API_PATH = /^\/api(\/|$)/i;

export const controlTextMiddleware: MiddlewareFunction<Response> = (
  { request, params },
  next,
) => {
  const url = new URL(request.url);
  const api = API_PATH.test(url.pathname);
  const inPath = refusedText(
    Object.entries(params).map(([name, value]) => [name, value ?? ""]),
  );
  if (inPath) {
    if (api) return jsonError(404, "Not found");
    throw data(null, { status: 404, statusText: "Not Found" });
  }
  const inQuery = refusedText(url.searchParams);
  if (inQuery) {
    if (api) return jsonError(400, inQuery.message, inQuery.fieldErrors);
    throw data(inQuery.message, { status: 400, statusText: "Bad Request" });
  }
  return next();
};
