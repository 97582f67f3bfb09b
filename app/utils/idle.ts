/**
 * How long work put off until the browser is idle may wait for it: the
 * work still happens, at the latest this long after it was asked for, on a
 * page that never falls idle (docs/decisions/archive/1055-main-thread-at-the-floor.md).
 */
export const IDLE_WAIT_MS = 2000;

type IdleWindow = {
  requestIdleCallback?: (
    run: () => void,
    options: { timeout: number },
  ) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/**
 * Runs `run` in a task of its own once the main thread has nothing else to
 * do, so it is no part of a task that a tap would wait behind; Safari has no
 * requestIdleCallback and gets a timer instead. Answers a cancel function.
 */
export function whenIdle(
  run: () => void,
  timeout: number = IDLE_WAIT_MS,
): () => void {
  const w = window as IdleWindow;
  if (w.requestIdleCallback && w.cancelIdleCallback) {
    const handle = w.requestIdleCallback(() => run(), { timeout });
    return () => w.cancelIdleCallback!(handle);
  }
  const timer = setTimeout(run, 1);
  return () => clearTimeout(timer);
}

/**
 * whenIdle for an inline classic script: statements that define a function
 * named `name` which puts off its argument the same way.
 */
export function whenIdleJs(name: string): string {
  return (
    `function ${name}(f){typeof requestIdleCallback=="function"` +
    `?requestIdleCallback(function(){f()},{timeout:${IDLE_WAIT_MS}}):setTimeout(f,1)}`
  );
}
