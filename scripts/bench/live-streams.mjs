// The bench's "live streams" row (docs/decisions/1010-live-pages-over-server-sent-events.md): STREAMS open event
// streams (GET /api/events) on one server process, each on its own socket,
// all signed in as one person; then EVENTS times a change that concerns
// that person (a bet they create), timed from the request being sent to
// each stream seeing its event. Reports the server's resident memory before
// and with the streams open, and the arrival times' p50, p99 and max. The
// arrival times include this client reading 1,000 sockets on one thread and
// the server's poll interval (LIVE_POLL_MS, 250 ms by default).
import http from "node:http";

const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function openStream(base, cookie, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      new URL("/api/events", base),
      { agent: false, headers: { Cookie: cookie } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream answered ${res.statusCode}`));
          return;
        }
        res.setEncoding("utf8");
        let buffer = "";
        res.on("data", (chunk) => {
          buffer += chunk;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = /^data: (.*)$/m.exec(block);
            if (data) onEvent(JSON.parse(data[1]));
          }
        });
        res.on("error", () => {});
        resolve(req);
      },
    );
    req.on("error", reject);
  });
}

export async function measureLiveStreams({
  base,
  pid,
  cookie,
  rssBytes,
  streams = 1_000,
  events = 5,
}) {
  const settle = () => new Promise((r) => setTimeout(r, 2_000));
  await settle();
  const rssBefore = rssBytes(pid);
  let waiting = null; // { betId, sentAt, times }
  const early = [];
  const onEvent = (data) => {
    if (data.type !== "bet") return;
    const now = performance.now();
    if (waiting) waiting.times.push(now - waiting.sentAt);
    else early.push(now);
  };
  const requests = [];
  const opened = performance.now();
  for (let i = 0; i < streams; i += 50) {
    const batch = Math.min(50, streams - i);
    requests.push(
      ...(await Promise.all(
        Array.from({ length: batch }, () => openStream(base, cookie, onEvent)),
      )),
    );
  }
  const openMs = performance.now() - opened;
  await settle();
  const rssOpen = rssBytes(pid);
  const all = [];
  let missing = 0;
  for (let n = 0; n < events; n++) {
    waiting = { sentAt: performance.now(), times: [] };
    const res = await fetch(new URL("/api/bets", base), {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({
        title: `Live bench ${n}`,
        description: "A bet made to time the live streams.",
        amount: 2,
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
        visibility: "private",
      }),
    });
    if (res.status !== 201) throw new Error(`create bet: ${res.status}`);
    await res.text();
    const deadline = performance.now() + 10_000;
    while (waiting.times.length < streams && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    missing += streams - waiting.times.length;
    all.push(...waiting.times);
    waiting = null;
    await new Promise((r) => setTimeout(r, 300));
  }
  for (const req of requests) req.destroy();
  all.sort((a, b) => a - b);
  return {
    streams,
    events,
    openMs,
    rssBefore,
    rssOpen,
    p50: pct(all, 50),
    p99: pct(all, 99),
    max: all[all.length - 1],
    missing,
  };
}
