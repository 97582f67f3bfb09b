// The benches' signed-in person: alice of the demo seed, with the cookies a
// returning visitor's browser sends (session, the stylesheet it already has,
// its time zone), so that a page is measured as it is served most often:
// the document links the stylesheet instead of carrying it inline, and the
// boot script's time-zone cookie comes with every request
// (app/utils/boot-script.ts).
import { signInAs } from "./harness.mjs";

export const TIME_ZONE_COOKIE = "tz=Europe%2FParis";

/** A signed-in `session` ("name=value") as it comes back to `base`. */
export async function returningCookies(base, session) {
  const first = await fetch(`${base}/`, {
    headers: { Cookie: session },
    redirect: "manual",
  });
  const stylesheet = first.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("fs_css="));
  return [session, stylesheet, TIME_ZONE_COOKIE].filter(Boolean).join("; ");
}

/** The Cookie header of alice coming back to `base`. */
export async function returningVisitorCookie(base) {
  return returningCookies(base, await signInAs(base));
}

/** `/bet` names the feed's first bet; any other page is itself. */
export async function pageToMeasure(base, page) {
  if (page !== "/bet") return page;
  const bets = await (await fetch(`${base}/api/bets`)).json();
  return `/bet/${bets[0].id}`;
}
