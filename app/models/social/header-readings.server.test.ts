import { describe, expect, it } from "vitest";
import { headerReadings } from "./activity.server";
import { sendFriendRequest } from "./friend.server";
import { createSession, sessionHashOf } from "../accounts/session.server";
import { latestLiveEventId } from "../notifications/live-events.server";
import { person } from "../../../tests/support/factories";

// The app header's readings on every page (docs/product-rules.md#live-pages):
// the live cursor and the unread count of whoever the session is for, read
// in one statement on both engines.
async function makeUser() {
  return (await person("hr")).id;
}

async function sessionHashFor(userId: number) {
  const { setCookie } = await createSession(userId);
  const cookie = setCookie.split(";")[0]!;
  return sessionHashOf(
    new Request("http://localhost/", { headers: { Cookie: cookie } }),
  );
}

describe("headerReadings", () => {
  it("counts the unread activity of the session's person only, beside the newest live event", async () => {
    const me = await makeUser();
    const other = await makeUser();
    const third = await makeUser();
    const fourth = await makeUser();
    await sendFriendRequest({ userId: other, friendId: me });
    await sendFriendRequest({ userId: third, friendId: me });
    await sendFriendRequest({ userId: me, friendId: fourth });
    const mine = await sessionHashFor(me);
    expect(mine).not.toBeNull();

    expect(await headerReadings(mine)).toEqual({
      liveCursor: await latestLiveEventId(),
      unread: 2,
    });
    expect((await headerReadings(await sessionHashFor(other))).unread).toBe(0);
    expect((await headerReadings(await sessionHashFor(fourth))).unread).toBe(1);
  });

  it("a missing or unknown session reads no unread activity, and the cursor still", async () => {
    const me = await makeUser();
    await sendFriendRequest({ userId: await makeUser(), friendId: me });
    const latest = await latestLiveEventId();
    expect(latest).toBeGreaterThan(0);
    expect(await headerReadings(null)).toEqual({
      liveCursor: latest,
      unread: 0,
    });
    expect(await headerReadings("0".repeat(64))).toEqual({
      liveCursor: latest,
      unread: 0,
    });
  });
});
