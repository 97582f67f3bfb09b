export {};

// One competitor in the settlement storm tests: its own process and its own
// database connection. It waits for "go" on stdin so all start together.
// argv: dbPath, action ("approve" | "record" | "sweep"), betId, userId,
// [intentId | now (for approve and sweep: the instant they act at)]
const [, , dbPath, action, betId, userId, intentId] = process.argv;
process.env.DATABASE_PATH = dbPath;
process.env.DEMO_MODE = "1";
const { approveSettlement } =
  await import("~/models/settlements/settlement.server");
const { payBet } = await import("~/models/payments/pay-bet.server");
const { demoProvider } =
  await import("~/models/payments/payment-provider.server");
const { isDomainError } = await import("~/utils/errors");
const { runDueJobs } = await import("~/models/jobs/jobs.server");
const { JOB_HANDLERS } =
  await import("~/models/cross-domain/background-work.server");

process.stdin.once("data", async () => {
  try {
    if (action === "approve")
      await approveSettlement({
        betId: Number(betId),
        userId: Number(userId),
        now: intentId ? Number(intentId) : undefined,
      });
    else if (action === "sweep") {
      const report = await runDueJobs({
        handlers: JOB_HANDLERS,
        now: Number(intentId),
      });
      process.stdout.write(JSON.stringify({ ok: true, ...report }));
      process.exit(0);
    } else
      await payBet({
        betId: Number(betId),
        userId: Number(userId),
        by: { kind: "intent", intentId: intentId! },
        provider: demoProvider,
      });
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
