// The share preview a share-meta or share-image request may see: no session
// needed (crawlers are anonymous); a signed-in participant needs no ?code=,
// and a signed-in guesser's misses count against the account too.
import { BET_NOT_FOUND } from "~/domain/bet";
import { getSharePreview, type SharePreview } from "~/models/bets/share.server";
import { parseId } from "~/utils/validation";
import { notFound } from "~/utils/errors";
import { getUser, type RequestArgs } from "~/models/accounts/session.server";
import { clientAddressContext } from "~/framework/request-context.server";

export async function requireSharePreview({
  request,
  params,
  context,
}: RequestArgs & { params: { id?: string } }): Promise<SharePreview> {
  const clientAddress = context.get(clientAddressContext);
  const id = parseId(params.id);
  const code = new URL(request.url).searchParams.get("code");
  const viewer = await getUser({ request, context });
  const preview =
    id === null
      ? null
      : await getSharePreview(
          id,
          code,
          { userId: viewer?.id ?? null, clientAddress },
          viewer?.id ?? null,
        );
  if (!preview) throw notFound(BET_NOT_FOUND);
  return preview;
}
