// What must stop before the process exits (docs/operations.md#graceful-stop: "stop
// workers"): background loops — the scheduler, outbox delivery — register a
// hook here; the graceful stop runs the hooks after the last request is
// answered and before the database is checkpointed and closed.
type StopHook = () => void | Promise<void>;

const hooks: StopHook[] = [];

/** Runs `hook` when the server stops gracefully (it may return a promise). */
export function onStop(hook: StopHook) {
  hooks.push(hook);
}

/** Runs every hook, waiting at most `timeoutMs` for all of them together. */
export async function runStopHooks(timeoutMs: number) {
  const all = Promise.allSettled(
    hooks.map(async (hook) => {
      await hook();
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  const outcome = await Promise.race([all, late]);
  clearTimeout(timer);
  if (outcome === "late") return { finished: false, failed: 0 };
  return {
    finished: true,
    failed: outcome.filter((r) => r.status === "rejected").length,
  };
}

const startHooks: (() => void)[] = [];

/**
 * Runs `hook` the moment a graceful stop begins, before the server waits for
 * the requests in flight: for answers that never end by themselves (open
 * event streams, docs/decisions/1010-live-pages-over-server-sent-events.md), which would otherwise hold the stop
 * for the whole grace period.
 */
export function onStopStarting(hook: () => void) {
  startHooks.push(hook);
}

/** Runs the hooks of onStopStarting; one that throws does not stop the rest. */
export function runStopStartingHooks() {
  for (const hook of startHooks) {
    try {
      hook();
    } catch (error) {
      console.error("stop-starting hook failed", error);
    }
  }
}
