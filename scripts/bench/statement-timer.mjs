// Preloaded into the server by scripts/bench/statements.mjs (--import): times
// every better-sqlite3 statement call where it runs, inside the request, and
// writes the totals by SQL text to STATEMENT_TIMES_FILE twice a second. A CPU
// profile cannot say which statement its native time belongs to; this can.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const out = process.env.STATEMENT_TIMES_FILE;
const Database = createRequire(path.join(process.cwd(), "package.json"))(
  "better-sqlite3",
);
const totals = new Map();
const prepare = Database.prototype.prepare;
let timed = false;

Database.prototype.prepare = function (...args) {
  const statement = prepare.apply(this, args);
  if (!timed) {
    timed = true;
    time(Object.getPrototypeOf(statement));
  }
  return statement;
};

// Every statement shares one prototype: its methods are wrapped once.
// Not iterate(): it returns before its rows are read, so a time around it
// would say nothing.
function time(proto) {
  for (const method of ["all", "get", "run"]) {
    const call = proto[method];
    proto[method] = function (...args) {
      const start = process.hrtime.bigint();
      try {
        return call.apply(this, args);
      } finally {
        const key = `${method} ${this.source}`;
        const entry = totals.get(key) ?? { calls: 0, ns: 0 };
        entry.calls += 1;
        entry.ns += Number(process.hrtime.bigint() - start);
        totals.set(key, entry);
      }
    };
  }
}

if (out) {
  setInterval(
    () => fs.writeFileSync(out, JSON.stringify(Object.fromEntries(totals))),
    500,
  ).unref();
}
