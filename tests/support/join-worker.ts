export {};

// One competitor in the concurrent-join test: its own process and its own
// database connection. It waits for "go" on stdin so all start together.
const [, , dbPath, betId, userId] = process.argv;
process.env.DATABASE_PATH = dbPath;
const { joinBet } = await import("~/models/bets/bet.server");
const { isDomainError } = await import("~/utils/errors");

process.stdin.once("data", async () => {
  try {
    await joinBet({ betId: Number(betId), userId: Number(userId) });
    process.stdout.write(JSON.stringify({ ok: true }));
  } catch (error) {
    process.stdout.write(
      JSON.stringify({
        ok: false,
        status: isDomainError(error) ? error.status : 500,
        message: String((error as Error).message),
      }),
    );
  }
  process.exit(0);
});
process.stdout.write("ready\n");
