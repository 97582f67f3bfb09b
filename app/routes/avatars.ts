import type { Route } from "./+types/avatars";
import { getAvatar } from "~/models/accounts/avatar.server";
import { parseId } from "~/utils/validation";

// GET /avatars/{userId}: an uploaded avatar. The URL carries ?v={etag}, so a
// matching version is cached for a year; otherwise revalidate by ETag.
export async function loader({ request, params }: Route.LoaderArgs) {
  const id = parseId(params.userId);
  const avatar = id ? await getAvatar(id) : null;
  if (!avatar) return new Response("Not found", { status: 404 });
  const etag = `"${avatar.etag}"`;
  const version = new URL(request.url).searchParams.get("v");
  const headers = {
    ETag: etag,
    "Cache-Control":
      version === avatar.etag
        ? "public, max-age=31536000, immutable"
        : "public, max-age=0, must-revalidate",
  };
  if (request.headers.get("If-None-Match") === etag)
    return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(avatar.data), {
    headers: { ...headers, "Content-Type": avatar.contentType },
  });
}
