// Imports across the layers' lines, each written as if it stood in a file of
// the layer named by `at`. tests/lint/layers.test.ts lints them with the
// project's own eslint.config.js: every `bad` one must be refused, and every
// `good` one (the same layer's allowed arrows) must pass.
export type LayerFixture = { at: string; code: string; why: string };

export const BAD_IMPORTS: LayerFixture[] = [
  {
    at: "app/models/bets/lint-fixture.ts",
    code: 'import { pipeline } from "~/pipeline/pipeline.server";',
    why: "nothing below the pipeline imports it",
  },
  {
    at: "app/framework/lint-fixture.ts",
    code: 'import { mayWrite } from "../pipeline/regions.server";',
    why: "the framework seam sits below the pipeline",
  },
  {
    at: "app/pipeline/lint-fixture.ts",
    code: 'import { db } from "~/db/transactions.server";',
    why: "the pipeline reads no table itself",
  },
  {
    at: "app/routes/bets/lint-fixture.tsx",
    code: 'import { db } from "~/db/transactions.server";',
    why: "routes never import the database",
  },
  {
    at: "app/routes/api/lint-fixture.ts",
    code: 'import { bets } from "~/db/schema";',
    why: "API routes never import the schema",
  },
  {
    at: "app/routes/lint-fixture.ts",
    code: 'import { sqlite } from "../db/connections.server";',
    why: "a relative path does not slip past",
  },
  {
    at: "app/routes/payments/lint-fixture.tsx",
    code: 'import type { StripeProvider } from "~/payments/stripe.server";',
    why: "routes never reach a payment provider (they call payBet)",
  },
  {
    at: "app/routes/api/payments/lint-fixture.ts",
    code: 'import { getPaymentProvider } from "~/payments/provider.server";',
    why: "API routes never reach a payment provider either",
  },
  {
    at: "app/routes/api/payments/lint-fixture.ts",
    code: 'import { rangeFromRequest } from "~/routes/payments/finances.server";',
    why: "the /api door imports no page module (what both share is a model or a util)",
  },
  {
    at: "app/routes/api/payments/lint-fixture.ts",
    code: 'import { loadFinances } from "../../payments/finances.server";',
    why: "nor by a relative path from a folder in api/",
  },
  {
    at: "app/routes/api/lint-fixture.ts",
    code: 'import { betForPage } from "../bets/load.server";',
    why: "nor by a relative path from api/ itself",
  },
  {
    at: "app/routes/api/bets/lint-fixture.ts",
    code: 'import { db } from "~/db/transactions.server";',
    why: "API routes keep the routes' lines (no database) under their own rule",
  },
  {
    at: "app/components/bets/lint-fixture.tsx",
    code: 'import type { BetStatus } from "~/db/schema";',
    why: "components never import the schema, not even a type",
  },
  {
    at: "app/components/lint-fixture.tsx",
    code: 'import type { FriendEntry } from "~/models/social/friend.server";',
    why: "components never import a model",
  },
  {
    at: "app/components/lint-fixture.tsx",
    code: 'import { readTimeZone } from "~/utils/time-zone.server";',
    why: "components never import a .server module",
  },
  {
    at: "app/components/friends/lint-fixture.tsx",
    code: 'import { loadFriendsView } from "~/routes/friends/friends-view.server";',
    why: "components never import a route module",
  },
  {
    at: "app/db/lint-fixture.ts",
    code: 'import { registerUser } from "~/models/accounts/user.server";',
    why: "the database layer imports no model",
  },
  {
    at: "app/utils/lint-fixture.ts",
    code: 'import { getUser } from "~/models/accounts/session.server";',
    why: "utils import no model",
  },
  {
    at: "app/utils/lint-fixture.ts",
    code: 'import { db } from "~/db/transactions.server";',
    why: "utils import no database",
  },
  {
    at: "app/utils/lint-fixture.ts",
    code: 'import { BET_NOT_FOUND } from "~/domain/bet";',
    why: "utils sit below the domain: a helper knows no product word",
  },
  {
    at: "app/utils/lint-fixture.ts",
    code: 'import { PRESETS } from "../domain/finance-presets";',
    why: "nor by a relative path",
  },
  {
    at: "app/utils/lint-fixture.ts",
    code: 'import { data } from "react-router";',
    why: "utils are framework-free: no React Router",
  },
  {
    at: "app/utils/lint-fixture.ts",
    code: 'import { useEffect } from "react";',
    why: "utils are framework-free: no React",
  },
  {
    at: "app/utils/lint-fixture.ts",
    code: 'import { signedCookie } from "~/framework/signed-cookie.server";',
    why: "utils import nothing of the app above them",
  },
  {
    at: "app/domain/lint-fixture.ts",
    code: 'import { useLiveUpdates } from "~/browser/live-updates";',
    why: "the domain stands only on utils: no browser code",
  },
  {
    at: "app/domain/lint-fixture.ts",
    code: 'import { page } from "../framework/page.server";',
    why: "the domain imports no framework module, by a relative path either",
  },
  {
    at: "app/browser/lint-fixture.ts",
    code: 'import { getUser } from "~/models/accounts/session.server";',
    why: "browser code imports no model",
  },
  {
    at: "app/browser/lint-fixture.ts",
    code: 'import { env } from "~/utils/env.server";',
    why: "browser code imports no .server module",
  },
  {
    at: "app/browser/offline-queue/lint-fixture.ts",
    code: 'import { OfflineQueue } from "~/components/offline-queue";',
    why: "browser code sits below the components",
  },
  {
    at: "app/framework/lint-fixture.ts",
    code: 'import { db } from "~/db/transactions.server";',
    why: "the framework seam imports no database",
  },
  {
    at: "app/framework/lint-fixture.server.ts",
    code: 'import { getUser } from "~/models/accounts/session.server";',
    why: "the framework seam imports no model",
  },
  {
    at: "app/payments/lint-fixture.ts",
    code: 'import { completePayment } from "~/models/payments/payment.server";',
    why: "payments never import the models (models call payments)",
  },
  {
    at: "app/payments/lint-fixture.ts",
    code: 'import { db } from "~/db/transactions.server";',
    why: "payments never import the database (the model gives a store)",
  },
  {
    at: "app/payments/lint-fixture.ts",
    code: 'import { demoPaymentIntents } from "~/db/schema";',
    why: "payments never import the schema either",
  },
  {
    at: "app/payments/lint-fixture.ts",
    code: 'import type { Tx } from "../db/connections.server";',
    why: "payments never import the database, not even a type by a relative path",
  },
  {
    at: "app/payments/lint-fixture.ts",
    code: 'import { getPaymentProvider } from "../models/payments/payment-provider.server";',
    why: "payments never import a model by a relative path",
  },
  {
    at: "app/messaging/lint-fixture.ts",
    code: 'import { db } from "~/db/transactions.server";',
    why: "messaging never imports the database",
  },
  {
    at: "app/messaging/lint-fixture.ts",
    code: 'import { getUserById } from "~/models/accounts/user.server";',
    why: "messaging never imports a model",
  },
  {
    at: "app/models/settlements/lint-fixture.ts",
    code: 'import { loadFinances } from "~/routes/payments/finances.server";',
    why: "models never import a route",
  },
  {
    at: "app/models/jobs/lint-fixture.ts",
    code: 'import { remindReferee } from "../settlements/settlement-referee.server";',
    why: "the job queue imports no domain (the sweep that calls them is cross-domain)",
  },
  {
    at: "app/models/notifications/lint-fixture.ts",
    code: 'import { getUser } from "~/models/accounts/session.server";',
    why: "notifications sit below accounts",
  },
  {
    at: "app/models/requests/lint-fixture.ts",
    code: 'import { getUser } from "../accounts/session.server";',
    why: "request plumbing sits below accounts (a relative path too)",
  },
  {
    at: "app/models/accounts/lint-fixture.ts",
    code: 'import { friendshipsOf } from "~/models/social/friend-pairs.server";',
    why: "accounts sit below social",
  },
  {
    at: "app/models/payments/lint-fixture.ts",
    code: 'import { finalise } from "../../models/settlements/settlement-finalise.server";',
    why: "payments and settlements share a rank: neither imports the other",
  },
  {
    at: "app/models/requests/lint-fixture.ts",
    code: 'import { lease } from "~/models/jobs/claims.server";',
    why: "jobs and requests share the lowest rank",
  },
  {
    at: "app/models/settlements/lint-fixture.ts",
    code: 'import { JOB_HANDLERS } from "~/models/cross-domain/background-work.server";',
    why: "no domain imports the cross-domain modules",
  },
  {
    at: "app/models/cross-domain/lint-fixture.ts",
    code: 'import { loadFinances } from "~/routes/payments/finances.server";',
    why: "the cross-domain modules never import a route either",
  },
  {
    at: "app/domain/lint-fixture.ts",
    code: 'import { users } from "~/db/schema";',
    why: "domain types are client-safe",
  },
];

export const GOOD_IMPORTS: LayerFixture[] = [
  {
    at: "app/pipeline/lint-fixture.ts",
    code: 'import { getUser } from "~/models/accounts/session.server";',
    why: "the pipeline orders models",
  },
  {
    at: "app/framework/lint-fixture.ts",
    code: 'import { safeRedirect } from "~/utils/safe-redirect";\nimport { splitBuild } from "./route-split";',
    why: "the framework seam uses helpers and its own modules",
  },
  {
    at: "app/utils/lint-fixture.ts",
    code: 'import { z } from "zod";\nimport { invalid } from "./errors";\nimport { setting } from "~/utils/env.server";',
    why: "utils use libraries and each other",
  },
  {
    at: "app/domain/lint-fixture.ts",
    code: 'import type { FieldErrors } from "~/utils/errors";\nimport type { PublicUser } from "./user";',
    why: "the domain stands on utils and on itself",
  },
  {
    at: "app/browser/offline-queue/lint-fixture.ts",
    code: 'import { IDEMPOTENCY_FIELD } from "~/domain/idempotency";\nimport { markKey } from "../unsent-keys";\nimport { useEffect } from "react";',
    why: "browser code uses the domain, React and its own modules",
  },
  {
    at: "app/components/lint-fixture.tsx",
    code: 'import { keptFor } from "~/browser/offline-queue/kept-actions";',
    why: "components use browser code",
  },
  {
    at: "app/routes/bets/lint-fixture.tsx",
    code: 'import { getBetView } from "~/models/bets/bet.server";',
    why: "routes call models",
  },
  {
    at: "app/routes/payments/lint-fixture.tsx",
    code: 'import { payBet } from "~/models/payments/pay-bet.server";\nimport { loadPayable } from "./load.server";',
    why: "payment pages call the payment door and their own helpers",
  },
  {
    at: "app/routes/api/payments/lint-fixture.ts",
    code: 'import { rangeFromRequest } from "~/models/payments/finance-range-request.server";\nimport { toBetJson } from "~/routes/api/json";\nimport { x } from "../bets/share-preview.server";\nimport type { Route } from "./+types/financial-history";',
    why: "API routes share utils and models, and reach the API's own helpers",
  },
  {
    at: "app/routes/api/lint-fixture.ts",
    code: 'import { toBetJson } from "./json";\nimport { getUser } from "../../models/accounts/session.server";',
    why: "a relative path from api/ to its own files or below routes/ is fine",
  },
  {
    at: "app/components/lint-fixture.tsx",
    code: 'import type { BetStatus } from "~/domain/bet";\nimport { formatCents } from "~/utils/money";',
    why: "components take client-safe types and helpers",
  },
  {
    at: "app/models/settlements/lint-fixture.ts",
    code: 'import { db } from "~/db/transactions.server";\nimport { createDemoProvider } from "~/payments/demo.server";\nimport type { PaymentProvider } from "~/payments/provider.server";',
    why: "models use the database and call payments",
  },
  {
    at: "app/models/settlements/lint-fixture.ts",
    code: 'import { scheduleJob } from "../jobs/jobs.server";\nimport { getBetView } from "~/models/bets/bet.server";\nimport { proposeRefusal } from "./settlement-rules.server";',
    why: "a domain imports the domains below it and its own modules",
  },
  {
    at: "app/models/notifications/lint-fixture.ts",
    code: 'import { lease } from "~/models/jobs/claims.server";',
    why: "the outbox shares the job queue's claim, one rank down",
  },
  {
    at: "app/models/accounts/lint-fixture.ts",
    code: 'import { getUser } from "../requests/request-user.server";\nimport { sendAccountMail } from "~/models/notifications/outbox.server";',
    why: "accounts ask request plumbing and notifications, below them",
  },
  {
    at: "app/models/cross-domain/lint-fixture.ts",
    code: 'import { remindReferee } from "../settlements/settlement-referee.server";\nimport { runDueJobs } from "~/models/jobs/jobs.server";',
    why: "the cross-domain modules call every domain",
  },
  {
    at: "app/payments/lint-fixture.ts",
    code: 'import { invalid } from "~/utils/errors";\nimport type { ProviderIntent } from "./provider.server";',
    why: "providers use the helpers and each other's types",
  },
];
