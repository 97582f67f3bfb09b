import { describe, expect, it } from "vitest";
import {
  onStop,
  onStopStarting,
  runStopHooks,
  runStopStartingHooks,
} from "./stop-hooks.server";

describe("stop hooks", () => {
  it("runs every hook, waits for slow ones and counts failures", async () => {
    const ran: string[] = [];
    onStop(() => void ran.push("sync"));
    onStop(async () => {
      await new Promise((r) => setTimeout(r, 50));
      ran.push("async");
    });
    onStop(() => {
      throw new Error("boom");
    });
    const result = await runStopHooks(1_000);
    expect(ran.sort()).toEqual(["async", "sync"]);
    expect(result).toEqual({ finished: true, failed: 1 });
  });

  it("gives up on a hook that outlives the time left", async () => {
    onStop(() => new Promise(() => {}));
    expect(await runStopHooks(50)).toEqual({ finished: false, failed: 0 });
  });

  it("runs the stop-starting hooks at once, one failing not stopping the rest", () => {
    const ran: string[] = [];
    onStopStarting(() => {
      throw new Error("boom");
    });
    onStopStarting(() => void ran.push("streams ended"));
    runStopStartingHooks();
    expect(ran).toEqual(["streams ended"]);
  });
});
