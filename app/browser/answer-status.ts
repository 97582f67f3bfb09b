// The HTTP status and Retry-After of the answer to a clientAction's
// `serverAction()` (docs/decisions/1060-offline-queue-under-faults.md).
// React Router decodes the answer and keeps only its data: an error the
// server threw (the database out of reach while the session was read)
// arrives as a bare Error, its 503 and Retry-After gone. React Router sends
// it with the global `fetch` and the clientAction's own `request.signal`
// (docs/upgrading-react-router.md, row 12), so a fetch that carries a
// watched signal is the one; its answer is noted before React Router reads
// it. Installed on the first watch, and only the offline queue watches.

export type SeenAnswer = { status: number; retryAfterMs: number };

const watched = new WeakMap<AbortSignal, { seen?: SeenAnswer }>();
let installed = false;

/** Notes the answer to the fetch sent with `signal`; the getter answers it once seen. */
export function watchAnswer(signal: AbortSignal) {
  install();
  const slot: { seen?: SeenAnswer } = {};
  watched.set(signal, slot);
  return () => slot.seen;
}

function install() {
  if (installed || typeof window === "undefined" || !window.fetch) return;
  installed = true;
  const original = window.fetch;
  window.fetch = function (input, init) {
    const answer = original.call(this, input, init);
    const slot = init?.signal ? watched.get(init.signal) : undefined;
    if (slot)
      answer.then(
        (res) => {
          slot.seen = {
            status: res.status,
            retryAfterMs: retryAfterMs(res.headers.get("Retry-After")),
          };
        },
        () => {},
      );
    return answer;
  };
}

/** Retry-After in milliseconds (seconds or an HTTP date); 0 when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()) {
  if (!value) return 0;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds > 0 ? seconds * 1000 : 0;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : 0;
}
