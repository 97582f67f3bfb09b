// The upload budget's queue (app/framework/body-admission.ts): bodies admitted
// within the budget, the rest in order of arrival; a wait past the limit is
// "busy", a sender gone while waiting leaves its place at once.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BodyAdmission,
  collectGarbage,
  type AdmissionOutcome,
} from "./body-admission";

const MB = 1024 * 1024;

function ticket(outcome: AdmissionOutcome) {
  if (typeof outcome === "string") throw new Error(`not admitted: ${outcome}`);
  return outcome;
}

/** What a pending admission has settled to so far (undefined: still waiting). */
function track(promise: Promise<AdmissionOutcome>) {
  const state: { outcome?: AdmissionOutcome } = {};
  void promise.then((outcome) => (state.outcome = outcome));
  return state;
}

const here = () => new AbortController().signal;

describe("admitting large bodies by a byte budget", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("admits at once within the budget; the next waits until bytes are released", async () => {
    const admission = new BodyAdmission(20 * MB, 30_000);
    const first = ticket(await admission.admit(10 * MB, here()));
    const second = ticket(await admission.admit(10 * MB, here()));
    expect(admission.heldBytes).toBe(20 * MB);
    const third = track(admission.admit(10 * MB, here()));
    await vi.advanceTimersByTimeAsync(0);
    expect(third.outcome).toBeUndefined();
    expect(admission.waiting).toBe(1);
    first.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(typeof third.outcome).toBe("object");
    expect(admission.heldBytes).toBe(20 * MB);
    // Releasing twice gives back nothing more.
    first.release();
    expect(admission.heldBytes).toBe(20 * MB);
    second.release();
    ticket(third.outcome!).release();
    expect(admission.heldBytes).toBe(0);
  });

  it("a body larger than the whole budget goes alone", async () => {
    const admission = new BodyAdmission(16 * MB, 30_000);
    const small = ticket(await admission.admit(2 * MB, here()));
    const large = track(admission.admit(40 * MB, here()));
    await vi.advanceTimersByTimeAsync(0);
    expect(large.outcome).toBeUndefined();
    small.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(admission.heldBytes).toBe(40 * MB);
    ticket(large.outcome!).release();
  });

  it("first come, first admitted: a small body does not pass a large one waiting", async () => {
    const admission = new BodyAdmission(16 * MB, 30_000);
    const held = ticket(await admission.admit(10 * MB, here()));
    const large = track(admission.admit(12 * MB, here()));
    const small = track(admission.admit(2 * MB, here()));
    await vi.advanceTimersByTimeAsync(0);
    // 2 MB would fit beside the 10 MB held, but the 12 MB came first.
    expect(small.outcome).toBeUndefined();
    held.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(typeof large.outcome).toBe("object");
    expect(typeof small.outcome).toBe("object");
    expect(admission.heldBytes).toBe(14 * MB);
  });

  it("a wait past the limit is busy, and the queue moves on without it", async () => {
    const admission = new BodyAdmission(10 * MB, 5_000);
    const held = ticket(await admission.admit(10 * MB, here()));
    const late = track(admission.admit(10 * MB, here()));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(late.outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(late.outcome).toBe("busy");
    expect(admission.waiting).toBe(0);
    held.release();
    expect(admission.heldBytes).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a sender gone while waiting leaves its place, and those behind it move up", async () => {
    const admission = new BodyAdmission(16 * MB, 30_000);
    const held = ticket(await admission.admit(8 * MB, here()));
    const sender = new AbortController();
    const leaving = track(admission.admit(12 * MB, sender.signal));
    const behind = track(admission.admit(8 * MB, here()));
    await vi.advanceTimersByTimeAsync(0);
    expect(admission.waiting).toBe(2);
    sender.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(leaving.outcome).toBe("gone");
    // 8 + 8 fit once the 12 MB in front has gone: admitted at once.
    expect(typeof behind.outcome).toBe("object");
    expect(admission.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    held.release();
    ticket(behind.outcome!).release();
    expect(admission.heldBytes).toBe(0);
  });

  it("a sender already gone is not admitted", async () => {
    const admission = new BodyAdmission(16 * MB, 30_000);
    const sender = new AbortController();
    sender.abort();
    expect(await admission.admit(MB, sender.signal)).toBe("gone");
    expect(admission.heldBytes).toBe(0);
  });
});

describe("collecting released bodies", () => {
  it("asks V8 for a collection without putting gc on the global object", () => {
    const before = "gc" in globalThis;
    expect(() => collectGarbage("minor")).not.toThrow();
    expect(() => collectGarbage("major")).not.toThrow();
    expect("gc" in globalThis).toBe(before);
  });
});
