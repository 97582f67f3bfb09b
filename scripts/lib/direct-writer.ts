export {};

// A process writing to the storm's database directly through the models:
// it creates bets and joins them with its own users until told to stop.
// The database is the SQLite file named, or DATABASE_URL when it is set.
const [, , dbPath, index] = process.argv;
process.env.DATABASE_PATH = dbPath;
const { registerUser } = await import("~/models/accounts/user.server");
const { createBet, joinBet } = await import("~/models/bets/bet.server");

const tag = `w${index}x${Date.now().toString(36)}`;
const a = await registerUser({
  username: `${tag}a`,
  email: `${tag}a@example.com`,
  password: "secret123",
});
const b = await registerUser({
  username: `${tag}b`,
  email: `${tag}b@example.com`,
  password: "secret123",
});
let stop = false;
let ops = 0;
process.stdout.write("ready\n");
process.stdin.on("data", () => (stop = true));
while (!stop) {
  const bet = await createBet({
    creatorId: a.id,
    input: {
      title: "Direct",
      description: "Written directly",
      amountCents: 500,
      deadline: Date.now() + 86_400_000,
      visibility: "public",
    },
  });
  await joinBet({ betId: bet.id, userId: b.id });
  ops += 2;
  // A steady writer, not a spin loop: SQLite's lock has no queue, and a
  // process that retakes it at once starves every other writer.
  await new Promise((r) => setTimeout(r, 10));
}
process.stdout.write(`writer ${index}: ${ops} writes`);
process.exit(0);
