import { Form, Link, href } from "react-router";
import { PublicPage } from "~/components/page-frames";
import type { Route } from "./+types/fees";
import { LinkTabs } from "~/components/ui/link-tabs";
import { formatCents, PLATFORM_FEE_BPS, splitPayout } from "~/utils/money";

// Public and JavaScript-free: the calculator is a GET form computed here.
export const handle = { messages: ["header"], hydrate: false };

const TABS = ["overview", "calculator", "faq"] as const;
type Tab = (typeof TABS)[number];
const PRESETS = [50, 100, 500];
const DEFAULT_AMOUNT = 100;

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const tab: Tab = (TABS as readonly string[]).includes(params.get("tab") ?? "")
    ? (params.get("tab") as Tab)
    : "overview";
  const raw = params.get("amount");
  const input = raw ?? String(DEFAULT_AMOUNT);
  const amount = Number(input);
  const valid =
    input.trim() !== "" &&
    Number.isFinite(amount) &&
    amount >= 1 &&
    amount <= 1_000_000;
  const amountCents = valid ? Math.round(amount * 100) : null;
  return {
    tab,
    input,
    result:
      amountCents === null
        ? null
        : { amountCents, ...splitPayout(amountCents) },
    error: valid ? null : "Please enter a valid bet amount",
  };
}

export default function FeesHelp({ loaderData }: Route.ComponentProps) {
  const { tab, input, result, error } = loaderData;
  return (
    <PublicPage width="xl">
      <h1 className="mb-4 text-2xl font-bold">Platform fees</h1>
      <LinkTabs
        label="Fee help sections"
        current={tab}
        tabs={[
          { id: "overview", label: "Overview", to: href("/help/fees") },
          {
            id: "calculator",
            label: "Fee Calculator",
            to: `${href("/help/fees")}?tab=calculator`,
          },
          { id: "faq", label: "FAQ", to: `${href("/help/fees")}?tab=faq` },
        ]}
      />
      <section className="card mt-4">
        {tab === "overview" ? <Overview /> : null}
        {tab === "calculator" ? (
          <Calculator input={input} result={result} error={error} />
        ) : null}
        {tab === "faq" ? <Faq /> : null}
      </section>
    </PublicPage>
  );
}

function Overview() {
  return (
    <div className="space-y-3 text-slate-800">
      <h2 className="text-lg font-semibold">
        A {PLATFORM_FEE_BPS / 100}% fee on winnings, nothing else
      </h2>
      <p>
        Creating, sharing and joining bets is free. When a bet is settled, the
        loser pays the bet amount and a {PLATFORM_FEE_BPS / 100}% platform fee
        comes out of the winner&apos;s payout. It covers payment processing and
        platform maintenance.
      </p>
      <p>
        Example: on a $100 bet the fee is $2.50 and the winner receives $97.50.
        The loser pays $100.
      </p>
      <p>The fee is rounded to the nearest cent, half a cent rounding up.</p>
    </div>
  );
}

function Calculator({
  input,
  result,
  error,
}: {
  input: string;
  result: { amountCents: number; feeCents: number; netCents: number } | null;
  error: string | null;
}) {
  return (
    <div className="space-y-4">
      <Form method="get" className="space-y-3">
        <input type="hidden" name="tab" value="calculator" />
        <div>
          <label htmlFor="fee-amount" className="label">
            Bet amount ($)
          </label>
          <input
            id="fee-amount"
            name="amount"
            type="number"
            inputMode="decimal"
            min={1}
            step="0.01"
            defaultValue={input}
            className="input"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "fee-amount-error" : undefined}
          />
          {error ? (
            <p id="fee-amount-error" className="field-error">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-primary w-full">
          Calculate
        </button>
      </Form>
      <div className="flex gap-2" aria-label="Presets">
        {PRESETS.map((p) => (
          <Link
            key={p}
            to={`${href("/help/fees")}?tab=calculator&amount=${p}`}
            className="btn-secondary flex-1"
          >
            ${p}
          </Link>
        ))}
      </div>
      {result ? (
        <dl
          className="grid grid-cols-2 gap-2 text-sm"
          aria-label="Fee breakdown"
        >
          <dt>Bet amount</dt>
          <dd className="text-right font-semibold">
            {formatCents(result.amountCents)}
          </dd>
          <dt>Platform fee ({PLATFORM_FEE_BPS / 100}%)</dt>
          <dd className="text-right font-semibold">
            {`-${formatCents(result.feeCents)}`}
          </dd>
          <dt>Winner receives</dt>
          <dd className="text-right font-semibold text-brand-700">
            {formatCents(result.netCents)}
          </dd>
          <dt>Loser pays</dt>
          <dd className="text-right font-semibold">
            {formatCents(result.amountCents)}
          </dd>
        </dl>
      ) : null}
    </div>
  );
}

function Faq() {
  const items = [
    [
      "Who pays the fee?",
      "The winner: it is taken from the payout. The loser pays exactly the bet amount.",
    ],
    [
      "Is there a fee to create or join a bet?",
      "No. Only winnings carry a fee.",
    ],
    [
      "What if a bet is cancelled?",
      "A bet nobody joined before its deadline is cancelled and nobody pays anything.",
    ],
    [
      "Are there other fees?",
      "No. The 2.5% platform fee on winnings is the only one.",
    ],
  ];
  return (
    <div className="space-y-4">
      {items.map(([q, a]) => (
        <div key={q}>
          <h2 className="font-semibold">{q}</h2>
          <p className="text-slate-700">{a}</p>
        </div>
      ))}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Platform fees · Fairshake" },
];
