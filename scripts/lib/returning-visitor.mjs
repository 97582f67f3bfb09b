// The benches' signed-in person: alice of the demo seed, with the cookies a
// returning visitor's browser sends (session, the stylesheet it already has,
// its time zone), so that a page is measured as it is served most often.
import { signInAs } from "./harness.mjs";

export const TIME_ZONE_COOKIE = "tz=Europe%2FParis";

/** The Cookie header of alice coming back to `base`. */
export async function returningVisitorCookie(base) {
  const session = await signInAs(base);
  const first = await fetch(`${base}/`, {
    headers: { Cookie: session },
    redirect: "manual",
  });
  const stylesheet = first.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c.startsWith("fs_css="));
  return [session, ...stylesheet, TIME_ZONE_COOKIE].join("; ");
}

/** `/bet` names the feed's first bet; any other page is itself. */
export async function pageToMeasure(base, page) {
  if (page !== "/bet") return page;
  const bets = await (await fetch(`${base}/api/bets`)).json();
  return `/bet/${bets[0].id}`;
}
