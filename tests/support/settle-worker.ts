export {};

// One competitor in the settlement storm tests: its own process and its own
// database connection. It waits for "go" on stdin so all start together.
// argv: dbPath, action ("approve" | "record"), betId, userId, [intentId]
const [, , dbPath, action, betId, userId, intentId] = process.argv;
process.env.DATABASE_PATH = dbPath;
process.env.DEMO_MODE = "1";
const { approveSettlement } = await import("~/models/settlement.server");
const { recordPayment } = await import("~/models/payment.server");
const { demoProvider } = await import("~/payments/demo.server");
const { isDomainError } = await import("~/utils/errors");

process.stdin.once("data", async () => {
  try {
    if (action === "approve")
      approveSettlement({ betId: Number(betId), userId: Number(userId) });
    else
      await recordPayment({
        betId: Number(betId),
        userId: Number(userId),
        intentId: intentId!,
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
