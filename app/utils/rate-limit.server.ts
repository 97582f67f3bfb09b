// Abuse limits (docs/product-rules.md#abuse-limits): a count of attempts per key in a fixed window.
// They attach to what is done (signing in, signing up, a code lookup that
// misses), wherever it is reached, not to a spelling of a URL. In memory, per
// process: with several worker processes each counts its own share, which
// loosens a limit by at most that factor (decision 0500).
import { DomainError } from "./errors";
import { rateLimitsOn } from "./env.server";

export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

type Window = { count: number; resetAt: number };

export class WindowLimiter {
  private readonly windows = new Map<string, Window>();
  constructor(
    private readonly options: {
      limit: number;
      windowMs: number;
      message: string;
    },
  ) {}

  private current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.resetAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Throws 429 (with Retry-After) if any key has used up its window. */
  check(keys: string[], now = Date.now()) {
    if (!rateLimitsOn) return;
    for (const key of keys) {
      const window = this.current(key, now);
      if (window && window.count >= this.options.limit)
        throw new TooManyRequestsError(
          this.options.message,
          Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
        );
    }
  }

  /** Counts one attempt against every key. */
  record(keys: string[], now = Date.now()) {
    if (!rateLimitsOn) return;
    for (const key of keys) {
      const window = this.current(key, now);
      if (window) window.count += 1;
      else
        this.windows.set(key, {
          count: 1,
          resetAt: now + this.options.windowMs,
        });
    }
    // Bounded under a spray of made-up keys: expired windows go first.
    if (this.windows.size > 50_000)
      for (const [key, window] of this.windows)
        if (window.resetAt <= now) this.windows.delete(key);
  }

  /** Check, then count: for attempts that count whatever their outcome. */
  take(keys: string[], now = Date.now()) {
    this.check(keys, now);
    this.record(keys, now);
  }
}
