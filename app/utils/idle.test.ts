// Work put off until the browser is idle still happens, at the latest after
// IDLE_WAIT_MS, in a task of its own; Safari, without requestIdleCallback,
// gets a timer (docs/decisions/archive/1055-main-thread-at-the-floor.md).
import { afterEach, describe, expect, it, vi } from "vitest";
import { IDLE_WAIT_MS, whenIdle, whenIdleJs } from "./idle";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function idleBrowser() {
  const asked: { run: () => void; timeout: number; handle: number }[] = [];
  const cancelled: number[] = [];
  vi.stubGlobal("window", {
    requestIdleCallback: (run: () => void, options: { timeout: number }) => {
      asked.push({ run, timeout: options.timeout, handle: asked.length + 1 });
      return asked.length;
    },
    cancelIdleCallback: (handle: number) => cancelled.push(handle),
  });
  return { asked, cancelled };
}

describe("whenIdle", () => {
  it("asks for an idle moment, at most IDLE_WAIT_MS away, and runs nothing before", () => {
    const browser = idleBrowser();
    const run = vi.fn();
    whenIdle(run);
    expect(run).not.toHaveBeenCalled();
    expect(browser.asked.map((a) => a.timeout)).toEqual([IDLE_WAIT_MS]);
    browser.asked[0]!.run();
    expect(run).toHaveBeenCalledOnce();
  });

  it("can be called off before it runs", () => {
    const browser = idleBrowser();
    const cancel = whenIdle(() => {});
    cancel();
    expect(browser.cancelled).toEqual([1]);
  });

  it("falls back to a timer of its own without requestIdleCallback (Safari)", () => {
    vi.useFakeTimers();
    vi.stubGlobal("window", {});
    const run = vi.fn();
    const cancelled = vi.fn();
    whenIdle(run);
    whenIdle(cancelled)();
    expect(run).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(run).toHaveBeenCalledOnce();
    expect(cancelled).not.toHaveBeenCalled();
  });

  it("has an inline-script twin that waits the same way", () => {
    const asked: number[] = [];
    const ran: string[] = [];
    new Function(
      "requestIdleCallback",
      "setTimeout",
      "ran",
      `${whenIdleJs("idle")};idle(function(){ran.push("idle")})`,
    )(
      (run: () => void, options: { timeout: number }) => {
        asked.push(options.timeout);
        run();
      },
      () => {
        throw new Error("no timer where requestIdleCallback exists");
      },
      ran,
    );
    expect(asked).toEqual([IDLE_WAIT_MS]);
    expect(ran).toEqual(["idle"]);
  });
});
