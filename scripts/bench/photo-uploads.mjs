// The "photos" section of `npm run bench` (docs/product-rules.md#messages:
// memory stays within the 256 MB budget with 4 photo uploads at once). A
// fresh person on a fresh bet of their own sends messages with photos of
// ~10 MB (12-megapixel JPEGs of noise, which compress worst: what a phone's
// largest shot costs), while the server's RSS is sampled every 100 ms:
//
// - the /api: 4 messages at once, one photo each; and 1 message with 4;
// - the bet page's form as a browser without JavaScript posts it (multipart,
//   with its idempotency key): 4 at once of one photo each, and 1 of 4;
// - the costliest decode the rules let through: 4 messages at once, each a
//   PNG of 99 megapixels (under the 100-megapixel cap, a few hundred KB).
//
// Each row runs `rounds` times (a fresh person each round: 20 messages a
// minute is a product rule, on whatever the rate limits say) on a server
// started for it, then all the rows again one after another on the bench's
// own server. Printed: RSS at rest before, the peak, how many were taken.
import crypto from "node:crypto";
import { registerCookie as register } from "../lib/harness.mjs";

const MB = 1024 * 1024;

/** A fresh person and a bet of theirs they may write on. */
async function talker(base, name) {
  const cookie = await register(base, name);
  const res = await fetch(`${base}/api/bets`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({
      title: "Photo bench",
      description: "Photos as evidence, measured.",
      amount: 10,
      deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      visibility: "private",
    }),
  });
  if (res.status !== 201) throw new Error(`bet: ${res.status}`);
  const { id } = await res.json();
  return { cookie, betId: id };
}

function multipart(fields, files) {
  const boundary = `----fairshake-photos-${crypto.randomBytes(8).toString("hex")}`;
  const parts = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  for (const [i, file] of files.entries())
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p${i}.${file.ext}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from("\r\n"),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(parts),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** One message with `files`, through the /api or the bet page's form; its status. */
async function send(base, who, via, files, n) {
  const fields =
    via === "api"
      ? { body: `Evidence ${n}` }
      : {
          idempotencyKey: crypto.randomBytes(16).toString("base64url"),
          intent: "message",
          body: `Evidence ${n}`,
        };
  const { body, type } = multipart(fields, files);
  const res = await fetch(
    via === "api"
      ? `${base}/api/bets/${who.betId}/messages`
      : `${base}/bet/${who.betId}`,
    {
      method: "POST",
      headers: {
        Cookie: who.cookie,
        "Content-Type": type,
        ...(via === "page" && { Accept: "text/html" }),
      },
      body,
      redirect: "manual",
    },
  );
  await res.arrayBuffer();
  return res.status;
}

export async function measurePhotoUploads({
  base,
  pid,
  rssBytes,
  watchRss,
  /** A fresh server of its own: `{ base, pid, stop }`. */
  fresh,
  rounds = 3,
}) {
  const { default: sharp } = await import("sharp");
  // 4000×3000 of noise at quality 90: ~9.4 MB, just under the 10 MB limit.
  const noise = crypto.randomBytes(4000 * 3000 * 3);
  const jpegBytes = await sharp(noise, {
    raw: { width: 4000, height: 3000, channels: 3 },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  const jpeg = { bytes: jpegBytes, type: "image/jpeg", ext: "jpg" };
  const pngBytes = await sharp({
    create: {
      width: 11_000,
      height: 9_000,
      channels: 3,
      background: { r: 4, g: 120, b: 87 },
    },
  })
    .png()
    .toBuffer();
  const png = { bytes: pngBytes, type: "image/png", ext: "png" };

  const rows = [
    {
      label: `/api: 4 messages at once, 1 JPEG each (${(jpegBytes.length / MB).toFixed(1)} MB, 4000×3000)`,
      via: "api",
      messages: 4,
      files: [jpeg],
      taken: 201,
    },
    {
      label: "/api: 1 message with 4 of those JPEGs",
      via: "api",
      messages: 1,
      files: [jpeg, jpeg, jpeg, jpeg],
      taken: 201,
    },
    {
      label: "bet page's form (no JavaScript): 4 at once, 1 JPEG each",
      via: "page",
      messages: 4,
      files: [jpeg],
      taken: 302,
    },
    {
      label: "bet page's form (no JavaScript): 1 with 4 JPEGs",
      via: "page",
      messages: 1,
      files: [jpeg, jpeg, jpeg, jpeg],
      taken: 302,
    },
    {
      label: `/api: 4 messages at once, 1 PNG each (${(pngBytes.length / 1024).toFixed(0)} KB, 11000×9000 = 99 MP)`,
      via: "api",
      messages: 4,
      files: [png],
      taken: 201,
    },
  ];
  // One row's rounds against one server: RSS at rest before, the peak.
  const stamp = Date.now().toString(36);
  let people = 0;
  async function run(row, at) {
    let before = Infinity;
    let peak = 0;
    let taken = 0;
    const other = [];
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      const who = await talker(at.base, `ph${stamp}n${(people += 1)}`);
      before = Math.min(before, rssBytes(at.pid));
      const peakOf = watchRss(at.pid);
      const statuses = await Promise.all(
        Array.from({ length: row.messages }, (_, n) =>
          send(at.base, who, row.via, row.files, n),
        ),
      );
      peak = Math.max(peak, peakOf());
      for (const s of statuses)
        if (s === row.taken || (row.via === "page" && s === 303)) taken++;
        else other.push(s);
    }
    return {
      label: row.label,
      before,
      peak,
      taken,
      sent: rounds * row.messages,
      other,
      seconds: (performance.now() - started) / 1000,
    };
  }

  // Each row on a server of its own, fresh from its start: what 4 uploads
  // at once cost a server at rest.
  const results = [];
  for (const row of rows) {
    const at = await fresh();
    try {
      results.push(await run(row, at));
    } finally {
      await at.stop();
    }
  }
  // Then every row, one after another, on the bench's long-running server:
  // what a server that has already taken photos holds on to.
  const all = {
    label: "all of the above, one after another, on one server",
    before: Infinity,
    peak: 0,
    taken: 0,
    sent: 0,
    other: [],
    seconds: 0,
  };
  for (const row of rows) {
    const r = await run(row, { base, pid });
    all.before = Math.min(all.before, r.before);
    all.peak = Math.max(all.peak, r.peak);
    all.taken += r.taken;
    all.sent += r.sent;
    all.other.push(...r.other);
    all.seconds += r.seconds;
  }
  results.push(all);
  return results;
}
