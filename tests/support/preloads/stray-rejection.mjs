// Loaded into a test server with `node --import`: once the server has set
// its last-resort handlers (it listens by then), a promise is rejected that
// nobody awaits, as a bug would. See tests/ops/last-resort.test.ts.
const wait = setInterval(() => {
  if (process.listenerCount("unhandledRejection") === 0) return;
  clearInterval(wait);
  void Promise.reject(new Error("a promise nobody awaited"));
}, 50);
