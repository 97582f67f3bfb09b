// The "shaky connection" row of `npm run bench` (docs/product-rules.md#shaky-connections):
// a scripted person runs create → join → propose → approve → pay over the
// /api, every write with an Idempotency-Key, and the answer of every third
// write is cut (the server did the work; the answer never reaches the
// person). The person does what the app does: sends the same request again
// with the same key until an answer arrives. Printed: duplicates (goal 0),
// lost inputs (goal 0) and the extra requests per cut answer (goal ≤ 1).
import crypto from "node:crypto";

const stamp = Date.now().toString(36);

class ShakyPerson {
  constructor(base, counters) {
    this.base = base;
    this.cookie = "";
    this.counters = counters;
  }
  async send(method, path, body, key) {
    this.counters.requests += 1;
    const res = await fetch(this.base + path, {
      method,
      headers: {
        "Content-Type": "application/json",
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...(key ? { "Idempotency-Key": key } : {}),
      },
      body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
    });
    const set = res.headers.getSetCookie?.()[0];
    if (set && !/Max-Age=0/i.test(set)) this.cookie = set.split(";")[0];
    const text = await res.text();
    return { status: res.status, data: text ? JSON.parse(text) : null };
  }
  /** A write whose answer may be cut: sent again with its key until one arrives. */
  async write(path, body) {
    const key = crypto.randomUUID();
    this.counters.writes += 1;
    const cut = this.counters.writes % 3 === 0;
    let answer = await this.send("POST", path, body, key);
    if (cut) {
      this.counters.cuts += 1;
      // The answer above never arrived; the same request goes again.
      answer = await this.send("POST", path, body, key);
      for (let tries = 0; answer.status === 409 && tries < 20; tries += 1) {
        await new Promise((r) => setTimeout(r, 100));
        answer = await this.send("POST", path, body, key);
      }
    }
    return answer;
  }
}

/** Runs `rounds` whole bets; returns the figures. */
export async function shakyConnection(base, rounds = 10) {
  const counters = { requests: 0, writes: 0, cuts: 0 };
  const a = new ShakyPerson(base, counters);
  const b = new ShakyPerson(base, counters);
  for (const [who, name] of [
    [a, `shakya${stamp}`],
    [b, `shakyb${stamp}`],
  ]) {
    const res = await who.send("POST", "/api/register", {
      username: name,
      email: `${name}@example.com`,
      password: "secret123",
    });
    if (res.status !== 201) throw new Error(`register: ${res.status}`);
    who.id = res.data.id;
  }
  const setup = counters.requests;
  let lostInputs = 0;
  const made = [];
  for (let round = 0; round < rounds; round += 1) {
    const title = `Shaky ${stamp} ${round}`;
    const amount = 5 + round;
    const bet = await a.write("/api/bets", {
      title,
      description: "Sent on a train",
      amount,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      visibility: "public",
    });
    if (bet.status !== 201) throw new Error(`create: ${bet.status}`);
    const id = bet.data.id;
    made.push({ id, title, amount });
    await b.write(`/api/bets/${id}/join`, {});
    await a.write(`/api/bets/${id}/propose-settlement`, { winnerId: a.id });
    await b.write(`/api/settlements/${id}/approve`, {});
    const intent = await b.write("/api/create-payment-intent", { betId: id });
    const paymentIntentId = intent.data.paymentIntentId;
    await b.write("/api/payments/demo/confirm", {
      paymentIntentId,
      cardNumber: "4242 4242 4242 4242",
      expiry: "12/40",
      cvc: "123",
    });
    const paid = await b.write(`/api/bets/${id}/record-payment`, {
      paymentIntentId,
      amount,
    });
    if (paid.status !== 200) throw new Error(`pay: ${paid.status}`);
  }
  const extra = counters.requests - setup - counters.writes;
  // What the server holds: one bet per round, as typed, each settled and
  // paid once (the loser's history has one payment per bet).
  const ours = new Map();
  for (const kind of ["created", "completed"])
    for (const bet of (await a.send("GET", `/api/user/bets/${kind}`)).data)
      if (bet.title.startsWith(`Shaky ${stamp}`)) ours.set(bet.id, bet);
  const history = (
    await b.send("GET", "/api/financial-history?preset=all")
  ).data.transactions.filter((t) => t.type === "payment");
  let duplicates = ours.size - made.length;
  duplicates += Math.max(0, history.length - made.length);
  for (const { id, title, amount } of made) {
    const bet = (await a.send("GET", `/api/bets/${id}`)).data;
    if (bet.title !== title || bet.amount !== amount) lostInputs += 1;
    if (bet.status !== "settled") lostInputs += 1;
    if (bet.participantIds.length !== 2) duplicates += 1;
  }
  return {
    rounds,
    writes: counters.writes,
    cuts: counters.cuts,
    duplicates,
    lostInputs,
    extraPerCut: counters.cuts ? extra / counters.cuts : 0,
  };
}
