// React Router behaviour Fairshake relies on without a public promise, run
// through React Router's own request handler over a small hand-made server
// build (docs/upgrading-react-router.md). Each test fails if the installed
// React Router stops behaving as the workaround it names assumes.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import {
  createRequestHandler,
  Links,
  Meta,
  Outlet,
  RouterContextProvider,
  Scripts,
  ServerRouter,
  useLoaderData,
  type EntryContext,
  type MiddlewareFunction,
  type ServerBuild,
} from "react-router";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { withMatchedRoutesOnly } from "~/framework/matched-routes.server";
import { dataRequestPage } from "~/framework/route-pattern";
import {
  withModuleAfterFirstPaint,
  withoutScriptPreloads,
} from "~/framework/script-preloads.server";

type Seen = { requestUrl: string; url: string };
const NONCE = "n0+/=";

function assetRoute(id: string, parentId?: string) {
  return {
    id,
    parentId,
    module: `/assets/${id}.js`,
    imports: [],
    css: [],
    hasAction: false,
    hasLoader: true,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: false,
  };
}

/** A server build as `react-router build` writes one: a root and two pages. */
function testBuild(options: {
  seen: Seen[];
  render: (context: EntryContext) => EntryContext;
}): ServerBuild {
  const middleware: MiddlewareFunction<Response> = ({ request, url }, next) => {
    options.seen.push({
      requestUrl: request.url,
      url: url.pathname + url.search,
    });
    return next();
  };
  function Root() {
    return createElement(
      "html",
      null,
      createElement("head", null, createElement(Meta), createElement(Links)),
      createElement(
        "body",
        null,
        createElement(Outlet),
        createElement(Scripts, { nonce: NONCE }),
      ),
    );
  }
  function Bet() {
    const { id } = useLoaderData() as { id: string };
    return createElement("p", null, `bet ${id}`);
  }
  const routes = {
    root: {
      id: "root",
      path: "",
      module: {
        default: Root,
        middleware: [middleware],
        loader: () => ({ root: true }),
      },
    },
    "routes/bet": {
      id: "routes/bet",
      parentId: "root",
      path: "bet/:id",
      module: {
        default: Bet,
        loader: ({ params }: { params: { id?: string } }) => ({
          id: params.id,
        }),
      },
    },
    "routes/other": {
      id: "routes/other",
      parentId: "root",
      path: "other",
      module: {
        default: () => createElement("p", null, "other"),
        loader: () => null,
      },
    },
  };
  return {
    entry: {
      module: {
        default: (
          request: Request,
          status: number,
          headers: Headers,
          context: EntryContext,
        ) => {
          headers.set("Content-Type", "text/html");
          const html = renderToString(
            createElement(ServerRouter, {
              context: options.render(context),
              url: request.url,
              nonce: NONCE,
            }),
          );
          return new Response(`<!DOCTYPE html>${html}`, { status, headers });
        },
      },
    },
    routes,
    assets: {
      entry: { module: "/assets/entry.js", imports: [] },
      routes: {
        root: assetRoute("root"),
        "routes/bet": assetRoute("routes/bet", "root"),
        "routes/other": assetRoute("routes/other", "root"),
      },
      url: "/assets/manifest-test.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    // Middleware, requests passed through and trailing-slash-aware data
    // requests are React Router 8's only behaviour: no flags left.
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

function handlerFor(render: (context: EntryContext) => EntryContext) {
  const seen: Seen[] = [];
  const handle = createRequestHandler(
    testBuild({ seen, render }),
    "production",
  );
  return {
    seen,
    fetch: (url: string) =>
      handle(
        new Request(`http://fairshake.test${url}`),
        new RouterContextProvider(),
      ),
  };
}

describe("React Router behaviour Fairshake relies on", () => {
  it("0835: middleware gets the request as it came and the page's own path in `url`", async () => {
    const { seen, fetch } = handlerFor((c) => c);
    const response = await fetch("/bet/7.data?tab=x&_routes=routes%2Fbet");
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      {
        requestUrl:
          "http://fairshake.test/bet/7.data?tab=x&_routes=routes%2Fbet",
        url: "/bet/7?tab=x",
      },
    ]);
  });

  it("0810, 0813: a client navigation's data request is the page's path + `.data`, and `/_.data` for `/`", async () => {
    const { fetch } = handlerFor((c) => c);
    const bet = await fetch("/bet/7.data");
    expect(bet.status).toBe(200);
    expect(await bet.text()).toContain("7");
    expect(dataRequestPage("/bet/7.data")).toBe("/bet/7");
    expect(dataRequestPage("/_.data")).toBe("/");
    const root = await fetch("/_.data");
    expect(root.status).toBe(200);
    expect(await root.text()).toContain("root");
  });

  it("0840: <ServerRouter> renders the same document from the matched routes only", async () => {
    // React Router logs the 404's "No route matches" itself.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const whole = handlerFor((c) => c);
    const matchedOnly = handlerFor(withMatchedRoutesOnly);
    for (const path of ["/bet/7", "/other", "/nowhere"]) {
      const [a, b] = await Promise.all([
        whole.fetch(path).then((r) => r.text()),
        matchedOnly.fetch(path).then((r) => r.text()),
      ]);
      expect(b).toBe(a);
    }
    quiet.mockRestore();
    const page = await matchedOnly.fetch("/bet/7").then((r) => r.text());
    expect(page).toContain("bet 7");
    expect(page).toContain('import "/assets/manifest-test.js"');
  });

  it("0800, 0831: <Scripts> writes the head's module preloads and the module script that script-preloads.server.ts rewrites", async () => {
    const { fetch } = handlerFor((c) => c);
    const html = await fetch("/bet/7").then((r) => r.text());
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain('<link rel="modulepreload"');
    expect(html).toContain(`<script nonce="${NONCE}" type="module" async="">`);
    const served = withModuleAfterFirstPaint(withoutScriptPreloads(html));
    expect(served.slice(0, served.indexOf("</head>"))).not.toContain(
      "modulepreload",
    );
    expect(served).not.toMatch(/<script[^>]*type="module"/);
    expect(served).toContain("/assets/routes/bet.js");
  });

  it("server/serve.ts and server/dev.ts: @react-router/dev still serves the build as `virtual:react-router/server-build`", () => {
    const dist = path.resolve("node_modules/@react-router/dev/dist");
    const files = fs.readdirSync(dist, { recursive: true, encoding: "utf8" });
    const names = files.filter(
      (f) =>
        f.endsWith(".js") &&
        fs
          .readFileSync(path.join(dist, f), "utf8")
          .includes('"virtual:react-router/server-build"'),
    );
    expect(names).not.toEqual([]);
  });

  it("1057: the browser reads its route manifest from the global that the plugin's manifest file assigns", () => {
    // route-split.ts writes the pages' manifest file in the plugin's form.
    const read = (file: string) =>
      fs.readFileSync(path.join("node_modules", file), "utf8");
    expect(read("@react-router/dev/dist/vite.js")).toContain(
      "`window.__reactRouterManifest=${JSON.stringify(",
    );
    // React Router 8 publishes one file per module: the hydrating router
    // is in lib/dom-export/ (7.x had one dom-export.mjs).
    expect(
      read("react-router/dist/production/lib/dom-export/hydrated-router.js"),
    ).toContain("manifest: window.__reactRouterManifest,");
  });
});
