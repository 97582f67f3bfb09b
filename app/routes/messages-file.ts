import type { Route } from "./+types/messages-file";
import { isMessageArea, pageMessagesFile } from "~/framework/catalogs.server";
import { isLanguage } from "~/domain/language";

// GET /messages/{language}/{areas}.{hash}.json: a page's messages, which the
// document names instead of carrying
// (docs/decisions/1165-messages-in-a-file-of-their-own.md). Named by a hash
// of its content, so kept for a year. A name whose hash is not this build's
// (a page served by a machine still on the last deploy) gets this build's
// words for the same areas, not to be kept: close to the ones it rendered,
// and better than a page that cannot hydrate.
const FILE = /^([a-zA-Z-]+(?:\.[a-zA-Z-]+)*)\.([\w-]{12})\.json$/;

export function loader({ params }: Route.LoaderArgs) {
  const match = FILE.exec(params.file);
  const areas = match?.[1]!.split(".") ?? [];
  if (!isLanguage(params.language) || !match || !areas.every(isMessageArea))
    return Response.json(
      { error: "No such messages." },
      { status: 404, headers: { "Cache-Control": "no-store" } },
    );
  const file = pageMessagesFile(params.language, areas);
  const exact = file.name === params.file;
  return Response.json(file.messages, {
    headers: {
      "Cache-Control": exact
        ? "public, max-age=31536000, immutable"
        : "no-store",
    },
  });
}
