// How many bytes of large request bodies the process holds at once
// (docs/decisions/1140-uploads-admitted-by-a-byte-budget.md). A photo
// upload is ~10 MB and a message may carry four: read as they arrive, four
// at once were 40 MB of bodies held beside the one decode that runs at a
// time, and a burst could hold as many as people sent. A large body is read
// only once it is admitted: while the bytes already admitted and the new
// body's together stay within the budget, or when nothing else is held (a
// body larger than the budget goes alone). Until then its socket is not
// read: the sender waits in the kernel's buffers and its own, not in ours.
// First come, first admitted: a large body is never passed over by smaller
// ones behind it.
//
// A body's bytes live outside V8's heap, and V8 frees them only when it
// collects the Buffer that holds them: a full collection, which it starts
// for outside memory only once 64 MB more of it is held than after the last.
// Uploads are little JavaScript and many large buffers, so bodies long done
// stayed in memory, 40–90 MB of them (the record above). Once a body is
// released, a full collection is asked for, concurrent with the work that
// follows (`collectGarbage`).
import v8 from "node:v8";
import vm from "node:vm";
//
// A wait has a limit: past it the request is answered 503 with Retry-After
// (the caller's to send), never left hanging. A sender that goes away while
// it waits leaves the queue at once.

/** What an admitted body holds until its request is done: `release` gives its bytes back (once). */
export type AdmissionTicket = { release: () => void };

export type AdmissionOutcome =
  | AdmissionTicket
  /** Waited past the limit. */
  | "busy"
  /** The sender went away while waiting. */
  | "gone";

type Waiter = {
  bytes: number;
  settle: (outcome: AdmissionOutcome) => void;
};

export class BodyAdmission {
  #held = 0;
  readonly #queue: Waiter[] = [];

  constructor(
    /** Bytes of admitted bodies the process holds at once. */
    readonly budgetBytes: number,
    /** How long a body may wait for its turn before it is answered "busy". */
    readonly maxWaitMs: number,
  ) {}

  /** Bytes admitted and not yet released. */
  get heldBytes() {
    return this.#held;
  }

  /** Bodies waiting for their turn. */
  get waiting() {
    return this.#queue.length;
  }

  /**
   * Admits a body of `bytes` now or when its turn comes; "busy" after
   * `maxWaitMs`; "gone" as soon as `gone` aborts while it waits.
   */
  admit(bytes: number, gone: AbortSignal): Promise<AdmissionOutcome> {
    if (gone.aborted) return Promise.resolve("gone");
    if (this.#queue.length === 0 && this.#fits(bytes))
      return Promise.resolve(this.#hold(bytes));
    return new Promise<AdmissionOutcome>((resolve) => {
      const leave = (outcome: "busy" | "gone") => {
        const at = this.#queue.indexOf(waiter);
        if (at === -1) return;
        this.#queue.splice(at, 1);
        waiter.settle(outcome);
        // The one that left may have stood in front of bodies that fit now.
        this.#admitWaiting();
      };
      const onGone = () => leave("gone");
      const timer = setTimeout(() => leave("busy"), this.maxWaitMs);
      const waiter: Waiter = {
        bytes,
        settle: (outcome) => {
          clearTimeout(timer);
          gone.removeEventListener("abort", onGone);
          resolve(outcome);
        },
      };
      gone.addEventListener("abort", onGone, { once: true });
      this.#queue.push(waiter);
    });
  }

  #fits(bytes: number) {
    return this.#held === 0 || this.#held + bytes <= this.budgetBytes;
  }

  #hold(bytes: number): AdmissionTicket {
    this.#held += bytes;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#held -= bytes;
        this.#admitWaiting();
      },
    };
  }

  #admitWaiting() {
    for (
      let next = this.#queue[0];
      next && this.#fits(next.bytes);
      next = this.#queue[0]
    ) {
      this.#queue.shift();
      next.settle(this.#hold(next.bytes));
    }
  }
}

type Collect = (options: {
  type: "major" | "minor";
  execution: "async" | "sync";
}) => void;
let collect: Collect | null | undefined;

/**
 * Asks V8 for a collection: "major" (concurrent with what follows) once a
 * body is released, so its bytes go back at once; "minor" while a large
 * body arrives, for the socket's chunks already copied into it (each held
 * outside the heap by a small young object: 10 MB of them before V8 would
 * look). V8's `gc` is taken once, by allowing it for the one context made
 * here and no other (the app's own global `gc` stays undefined); where that is
 * refused, nothing is asked and V8 collects when it would have.
 */
export function collectGarbage(type: "major" | "minor") {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString("--expose-gc");
      collect = vm.runInNewContext("gc") as Collect;
    } catch {
      collect = null;
    } finally {
      v8.setFlagsFromString("--no-expose-gc");
    }
  }
  try {
    collect?.({ type, execution: type === "major" ? "async" : "sync" });
  } catch {
    // Called from a socket's data handler: nothing here may throw.
    collect = null;
  }
}
