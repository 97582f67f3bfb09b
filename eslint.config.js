import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      ".node/",
      "build/",
      "data/",
      ".react-router/",
      "test-results/",
      "playwright-report/",
      "drizzle/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  // The layers (docs/architecture.md#layers, docs/decisions/0960-layers-as-they-are.md):
  // each folder names what it must not import. A rule here is the only thing
  // that keeps a layer a layer; tests/lint/layers.test.ts proves each one.
  ...layerRules(),
  // One module reads the environment, through its schema
  // (app/utils/env.server.ts): everything else asks it, so every variable is
  // described, defaulted and checked in one place.
  // tests/lint/environment.test.ts proves the rule.
  environmentRule(),
  // One module graph per process (docs/decisions/1040-one-module-graph.md):
  // a module's state is its own, never parked on globalThis or under a
  // registered symbol to survive a second copy of the module.
  // tests/lint/singletons.test.ts proves the rule.
  ...singletonRules(),
  {
    // Tests poke at loosely typed JSON answers on purpose.
    files: ["tests/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);

// Function declarations are hoisted; the config above runs before any const.
function singletonMessage() {
  return "One module graph per process: keep the state in the module itself, not on globalThis or under Symbol.for (docs/decisions/1040-one-module-graph.md).";
}

function symbolForRule() {
  return { object: "Symbol", property: "for", message: singletonMessage() };
}

function singletonRules() {
  const files = ["app/**", "server/**", "server.ts"];
  const ignores = ["**/*.test.ts", "**/*.test.tsx"];
  return [
    {
      files,
      ignores,
      rules: {
        "no-restricted-globals": [
          "error",
          { name: "globalThis", message: singletonMessage() },
          { name: "global", message: singletonMessage() },
        ],
      },
    },
    // The environment rule below owns no-restricted-properties for every
    // other file (a later setting of a rule replaces an earlier one).
    {
      files: ["app/utils/env.server.ts"],
      rules: { "no-restricted-properties": ["error", symbolForRule()] },
    },
  ];
}

function environmentRule() {
  const message =
    "Read the environment through app/utils/env.server.ts (an accessor, or setting()): its schema describes and checks every variable.";
  return {
    files: ["app/**", "server/**", "server.ts"],
    ignores: ["app/utils/env.server.ts", "**/*.test.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message },
        symbolForRule(),
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "ImportDeclaration[source.value=/^(node:)?process$/] ImportSpecifier[imported.name='env']",
          message,
        },
      ],
    },
  };
}

/**
 * The model domains (app/models/<domain>/), lowest first
 * (docs/architecture.md#model-domains): a domain imports only the domains on
 * a lower line, so no two domains import each other. The cross-domain
 * modules (the sweep, the demo seed, the data export) stand above them all.
 * tests/lint/model-domains.test.ts checks every folder is named here.
 */
export function modelDomainRanks() {
  return [
    ["jobs", "requests"],
    ["notifications"],
    ["accounts"],
    ["social"],
    ["bets"],
    ["payments", "settlements", "messages"],
    ["cross-domain"],
  ];
}

/** One no-restricted-imports layer per model domain folder. */
function modelDomainLayers(layer) {
  const ROUTES = {
    group: ["**/routes/*"],
    message: "Rules know no screen: a route calls a model, not the reverse.",
  };
  const ranks = modelDomainRanks();
  return ranks.flatMap((rank, i) =>
    rank.map((domain) => {
      const below = ranks.slice(0, i).flat();
      const notBelow = ranks
        .slice(i)
        .flat()
        .filter((d) => d !== domain);
      // `../<domain>/` from a domain folder, or any path through `models/<domain>/`.
      const UP_OR_ACROSS = {
        regex: `(^\\.\\./|(^|/)models/)(${notBelow.join("|")})/`,
        message: `Model domains are layered (docs/architecture.md#model-domains): ${domain} imports only ${below.join(", ") || "no other domain"}.`,
      };
      return layer(
        [`app/models/${domain}/**`],
        notBelow.length > 0 ? [ROUTES, UP_OR_ACROSS] : [ROUTES],
      );
    }),
  );
}

function layerRules() {
  const DB = {
    group: ["~/db", "**/db/*"],
    message: "Only models touch the database: call a model function.",
  };
  const MODELS = (why) => ({
    group: ["**/models/*", "**/models/**"],
    message: why,
  });
  const SERVER = {
    group: ["**/*.server"],
    message:
      "Components hold no server code: take client-safe types from app/domain/.",
  };
  const ROUTES = {
    group: ["**/routes/*"],
    message: "Components know no route: pass what they need as props.",
  };
  const PROVIDERS = {
    group: ["~/payments/*", "**/app/payments/*"],
    message:
      "Routes pay through the payment models (payBet, paymentOptions): a provider is the model's business (docs/decisions/0935).",
  };
  // The /api door shares with the pages only what lives below both (models,
  // utils): an API route never imports a page's module (docs/decisions/0950-payment-pages-on-the-page-door.md).
  const PAGES = (regex) => ({
    regex,
    message:
      "The /api door imports no page module: move what both doors share to a model or a util.",
  });
  const API_TO_PAGE = "^~/routes/(?!api/)";
  // What every request passes (app/pipeline/) stands above everything it
  // orders: only app/root.tsx (and the server's entry) import it.
  const PIPELINE = {
    group: ["~/pipeline/*", "**/pipeline/*"],
    message:
      "The request pipeline stands above the layers: app/root.tsx imports it, nothing below it does.",
  };
  // Tests are not a layer: they may reach past one to set up a case.
  const layer = (files, patterns) => ({
    files,
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [...patterns, PIPELINE] }],
    },
  });
  return [
    // The pipeline orders models and the framework seam; it reads no table
    // itself and knows no screen.
    {
      files: ["app/pipeline/**"],
      ignores: ["**/*.test.ts"],
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              {
                ...DB,
                message:
                  "The pipeline reads no table: the stores it uses are models.",
              },
              {
                group: ["~/routes/*", "**/routes/*", "~/components/*"],
                message:
                  "The pipeline knows no screen: routes and components stand after it.",
              },
            ],
          },
        ],
      },
    },
    layer(["app/routes/**"], [DB, PROVIDERS]),
    // A relative path climbs to app/routes/ from api/ (one "../") or from a
    // folder in it (two), then into any folder but api/.
    layer(
      ["app/routes/api/*"],
      [DB, PROVIDERS, PAGES(API_TO_PAGE), PAGES("^\\.\\./(?!\\.\\./|api/)")],
    ),
    layer(
      ["app/routes/api/*/*"],
      [
        DB,
        PROVIDERS,
        PAGES(API_TO_PAGE),
        PAGES("^\\.\\./\\.\\./(?!\\.\\./|api/)"),
      ],
    ),
    ...modelDomainLayers(layer),
    layer(
      ["app/components/**"],
      [
        DB,
        SERVER,
        ROUTES,
        MODELS(
          "Components hold no rules: take client-safe types from app/domain/.",
        ),
      ],
    ),
    layer(
      ["app/db/**"],
      [
        MODELS(
          "The schema knows no rules: the demo seed lives in app/models/jobs/.",
        ),
      ],
    ),
    // The lowest layer (docs/architecture.md#layers): plain helpers and
    // process plumbing, no React, no product words, nothing of the app above.
    layer(
      ["app/utils/**"],
      [
        DB,
        MODELS(
          "Helpers know no rules: what needs a model is a model or a route helper.",
        ),
        {
          group: ["~/domain/*", "**/domain/*"],
          message:
            "Helpers know no product words: utils sit below app/domain/, which may import them.",
        },
        {
          group: [
            "~/*/**",
            "../*/**",
            "!~/utils/**",
            "!../utils/**",
            "react",
            "react-dom",
            "react-dom/*",
            "react-router",
            "@react-router/*",
          ],
          message:
            "Helpers are framework-free and sit lowest: React and React Router code goes to app/framework/ or app/browser/.",
        },
      ],
    ),
    // Code that runs only in the browser (hooks, the service worker's
    // registration, the offline queue): it stands on domain and utils.
    layer(
      ["app/browser/**"],
      [
        DB,
        {
          ...SERVER,
          message: "Browser code holds no server code: it ships to the page.",
        },
        MODELS("Browser code holds no rules: it reads what the server sent."),
        {
          group: [
            "~/routes/*",
            "**/routes/*",
            "~/components/*",
            "~/framework/*",
          ],
          message:
            "Browser code sits below the screens: components and routes import it, not the reverse.",
        },
      ],
    ),
    // The framework seam (docs/upgrading-react-router.md): where Express
    // meets React Router, and what leans on React Router's internals.
    layer(
      ["app/framework/**"],
      [
        {
          ...DB,
          message:
            "The framework seam knows no tables: a route or a model reads the database.",
        },
        MODELS(
          "The framework seam knows no rules: it hands requests to the routes, which call models.",
        ),
      ],
    ),
    layer(
      ["app/payments/**"],
      [
        {
          ...DB,
          message:
            "Providers keep no tables: the model that chooses the provider hands it a store (docs/decisions/0960).",
        },
        MODELS(
          "Providers know no rules: models call providers, not the reverse.",
        ),
      ],
    ),
    layer(
      ["app/messaging/**"],
      [
        {
          ...DB,
          message:
            "Messaging only delivers: the model that decides to tell someone reads the database.",
        },
        MODELS(
          "Messaging knows no rules: models call mail and push, not the reverse.",
        ),
      ],
    ),
    // Client-safe types and product constants: above utils, below the rest.
    layer(
      ["app/domain/**"],
      [
        DB,
        SERVER,
        MODELS("Domain types are client-safe."),
        {
          group: [
            "~/*/**",
            "../*/**",
            "!~/domain/**",
            "!~/utils/**",
            "!../utils/**",
          ],
          message:
            "The domain stands only on app/utils/: everything else imports the domain, not the reverse.",
        },
      ],
    ),
  ];
}
