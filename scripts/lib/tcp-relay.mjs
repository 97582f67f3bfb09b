// Small TCP relays for the failover drill and tests, on loopback:
//
//   const proxy = await startRelay({ to: primary.port });  // a stand-in for Fly's proxy
//   proxy.switchTo(standby.port);   // the address now leads to the promoted standby
//   const link = await startRelay({ to: primary.port, delayMs: () => 100 + 200 * random() });
//
// With `delayMs`, every chunk in each direction is held that long (in
// order: a chunk never overtakes the one before), as a link between two
// regions holds it: a standby replicating through it trails the primary.
// It is asked for every chunk, so a link's delay can change while it runs
// (the bench's `commit` section: 0 ms, then a real link's).
// A connection whose other side closes or fails is closed too (on a
// delayed link once what was already on its way has arrived); one that
// cannot reach its target is closed at once, as a proxy does when the
// machine behind it is gone.
import net from "node:net";

/**
 * Starts a relay on a free loopback port to `to`; `port`, `switchTo(port)`
 * (new connections go there; `cut` also closes the open ones), `cutAll()`,
 * `close()`.
 */
export async function startRelay({ to, delayMs, port = 0 }) {
  let target = to;
  const open = new Set();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target, "127.0.0.1");
    const pair = { inbound, outbound };
    open.add(pair);
    const toOutbound = pipe(inbound, outbound, delayMs);
    const toInbound = pipe(outbound, inbound, delayMs);
    const closeBoth = () => {
      open.delete(pair);
      const drained = Math.max(toOutbound.last, toInbound.last) - Date.now();
      const destroy = () => {
        inbound.destroy();
        outbound.destroy();
      };
      if (drained > 0) setTimeout(destroy, drained + 5).unref();
      else destroy();
    };
    for (const socket of [inbound, outbound]) {
      socket.on("error", closeBoth);
      socket.on("close", closeBoth);
      socket.setNoDelay(true);
    }
  });
  server.on("error", () => undefined);
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const cutAll = () => {
    for (const { inbound, outbound } of open) {
      inbound.destroy();
      outbound.destroy();
    }
    open.clear();
  };
  return {
    port: server.address().port,
    switchTo(next, { cut = false } = {}) {
      target = next;
      if (cut) cutAll();
    },
    cutAll,
    close() {
      cutAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Copies `from` to `to`, each chunk held `delayMs()` and never reordered
 * (one queue, one timer: chunks due in the same millisecond leave in the
 * order they came); `last` is when the last chunk on its way arrives.
 */
function pipe(from, to, delayMs) {
  const state = { last: 0 };
  if (!delayMs) {
    from.pipe(to);
    return state;
  }
  const queue = [];
  let timer = null;
  const drain = () => {
    timer = null;
    const now = Date.now();
    while (queue.length && queue[0].at <= now) {
      const { chunk } = queue.shift();
      if (!to.destroyed) to.write(chunk);
    }
    if (queue.length) timer = setTimeout(drain, queue[0].at - now).unref();
  };
  from.on("data", (chunk) => {
    const now = Date.now();
    const delay = delayMs();
    // No delay now and nothing still on its way: straight through, as
    // loopback (a timer would add a millisecond of its own).
    if (delay <= 0 && !queue.length && state.last <= now) {
      if (!to.destroyed) to.write(chunk);
      return;
    }
    const at = Math.max(state.last, now + delay);
    state.last = at;
    queue.push({ at, chunk });
    timer ??= setTimeout(drain, Math.max(0, at - Date.now())).unref();
  });
  return state;
}
