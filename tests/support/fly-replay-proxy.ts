// A small stand-in for Fly's proxy, for the region tests only: it sends a
// request to the server of the region it stands in, and when the answer
// carries `fly-replay: region=X` it sends the same request (method, path,
// headers, body) to region X's server and passes that answer back, as Fly's
// proxy does. Like Fly's, it replays no body over 1 MB (it answers 502), and
// replays once. Answers stream through (an event stream stays open), and
// each says which region answered it (`x-test-region`), for the tests.
import http from "node:http";
import type { AddressInfo } from "node:net";

export const FLY_REPLAY_BODY_LIMIT = 1_000_000;

export type FlyReplayProxy = { url: string; close: () => Promise<void> };

/**
 * A proxy in front of `regions` (region → server URL) that sends every
 * request first to the server of `entry`, as Fly's proxy does for a person
 * near that region.
 */
export async function startFlyReplayProxy(
  regions: Record<string, string>,
  entry: string,
): Promise<FlyReplayProxy> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      send(entry, body, 0);
    });

    function send(region: string, body: Buffer, replays: number) {
      const target = new URL(regions[region]!);
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: {
            ...req.headers,
            ...(replays > 0 ? { "fly-replay-src": `region=${entry}` } : {}),
          },
        },
        (answer) => {
          const replay = /region=([a-z0-9]+)/i.exec(
            String(answer.headers["fly-replay"] ?? ""),
          )?.[1];
          if (replay) {
            answer.resume();
            if (replays > 0 || !regions[replay])
              return fail(502, `cannot replay to ${replay}`);
            if (body.length > FLY_REPLAY_BODY_LIMIT)
              return fail(502, "request body too large to replay");
            return send(replay, body, replays + 1);
          }
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, {
            ...answer.headers,
            "x-test-region": region,
          });
          answer.pipe(res);
        },
      );
      upstream.on("error", (error) => fail(502, error.message));
      res.on("close", () => upstream.destroy());
      upstream.end(body);
    }

    function fail(status: number, message: string) {
      if (res.headersSent) return res.destroy();
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
