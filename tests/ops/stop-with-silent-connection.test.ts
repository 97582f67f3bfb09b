// A graceful stop is not held up by a connection that never sent a byte
// (docs/operations.md#graceful-stop). Browsers open such connections
// speculatively; Node's closeIdleConnections leaves them open, so the stop
// waited out the whole grace period on every one of them.
import net from "node:net";
import { expect, it } from "vitest";
import { startServer } from "../support/server";

it("a connection that sent nothing is closed once the server is quiet, and the stop ends as all requests answered", async () => {
  // A grace period far longer than the test may run: only a stop that does
  // not wait for it can pass.
  const server = await startServer({ STOP_GRACE_MS: "600000" });
  const { port } = new URL(server.url);
  const silent = net.connect(Number(port), "127.0.0.1");
  await new Promise((resolve) => silent.once("connect", resolve));
  const closed = new Promise((resolve) => silent.once("close", resolve));
  // A request on a connection of its own, answered before the stop.
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

  await server.stop();
  await closed;
  expect(server.output()).toMatch(/"reason":"all requests answered"/);
});
