// Small TCP relays for the failover drill and tests, on loopback:
//
//   const proxy = await startRelay({ to: primary.port });  // a stand-in for Fly's proxy
//   proxy.switchTo(standby.port);   // the address now leads to the promoted standby
//   const link = await startRelay({ to: primary.port, delayMs: () => 100 + 200 * random() });
//
// With `delayMs`, every chunk in each direction is held that long (in
// order: a chunk never overtakes the one before), as a link between two
// regions holds it: a standby replicating through it trails the primary.
// A connection whose other side closes or fails is closed too; one that
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
    const closeBoth = () => {
      open.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    for (const socket of [inbound, outbound]) {
      socket.on("error", closeBoth);
      socket.on("close", closeBoth);
      socket.setNoDelay(true);
    }
    pipe(inbound, outbound, delayMs);
    pipe(outbound, inbound, delayMs);
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

/** Copies `from` to `to`, each chunk held `delayMs()` and never reordered. */
function pipe(from, to, delayMs) {
  if (!delayMs) {
    from.pipe(to);
    return;
  }
  let last = 0;
  from.on("data", (chunk) => {
    const at = Math.max(last, Date.now() + delayMs());
    last = at;
    const timer = setTimeout(
      () => {
        if (!to.destroyed) to.write(chunk);
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
  });
}
