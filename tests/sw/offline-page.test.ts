// The service worker's offline page in the person's language
// (docs/product-rules.md#languages): the server writes one page per language
// from the catalogs' `offlinePage` area (server/offline-page.ts), and the
// worker (public/sw.js, run here from its own source against an in-memory
// Cache Storage) shows the one the server last answered this person in,
// else the browser's. The browser journey is tests/e2e/pwa.spec.ts.
import fs from "node:fs";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { LANGUAGES, type Language } from "~/domain/language";
import { CATALOGS } from "~/framework/catalogs.server";
import { LANGUAGE_HEADER } from "~/pipeline/page-language.server";
import { escapeHtml } from "~/utils/html";
import { offlinePageHtml, offlinePagePath } from "../../server/offline-page";
import { serviceWorkerSource } from "../../server/service-worker-file";
import { FakeCache, fakeCacheStorage } from "../support/fake-cache-storage";

const ORIGIN = "https://fairshake.example";
const WORDS = [
  "offlinePage.title",
  "offlinePage.heading",
  "offlinePage.text",
  "offlinePage.tryAgain",
];

/** The text a person reads on a page (not its style sheet). */
const textOf = (html: string) =>
  [...html.replace(/<style[\s\S]*?<\/style>/g, "").matchAll(/>([^<]+)</g)]
    .map((m) => m[1]!.trim())
    .filter(Boolean);

describe("the offline page", () => {
  it.each(LANGUAGES)("in %s says the catalog's words", (language) => {
    const html = offlinePageHtml(language);
    expect(html).toContain(`<html lang="${language}">`);
    for (const key of WORDS)
      expect(html).toContain(escapeHtml(CATALOGS[language][key]!));
    expect(html).not.toContain("<script");
  });

  it("has no English left in another language", () => {
    const english = new Set(textOf(offlinePageHtml("en")));
    expect(english.size).toBe(WORDS.length);
    for (const language of ["es", "de", "pt-BR"] as const)
      expect(
        textOf(offlinePageHtml(language)).filter((t) => english.has(t)),
        language,
      ).toEqual([]);
    expect(offlinePageHtml("de")).toContain("<h1>Du bist offline</h1>");
  });
});

// --- The worker, against an in-memory Cache Storage -------------------------

type FakeRequest = { url: string; method: string; mode: string };
type Handler = (event: unknown) => void;

/** What the server answers the worker's own fetches (the offline pages). */
function server(url: string): Response {
  const path = new URL(url, ORIGIN).pathname;
  const language = LANGUAGES.find((l) => offlinePagePath(l) === path);
  if (!language) return new Response("<svg/>");
  return new Response(offlinePageHtml(language), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Language": language,
    },
  });
}

/** A worker started in a browser whose languages are `languages`; `store` is its Cache Storage. */
function startWorker(
  languages: string[],
  store = new Map<string, FakeCache>(),
) {
  const handlers: Record<string, Handler> = {};
  let network: (request: FakeRequest) => Promise<Response> = () =>
    Promise.reject(new TypeError("Failed to fetch"));
  const context = vm.createContext({
    self: {
      addEventListener: (type: string, handler: Handler) => {
        handlers[type] = handler;
      },
      skipWaiting() {},
      location: { origin: ORIGIN },
      navigator: { languages },
    },
    URL,
    Response,
    fetch: (request: FakeRequest) => network(request),
    caches: fakeCacheStorage(store, () => new FakeCache(ORIGIN, server)),
  });
  vm.runInContext(
    serviceWorkerSource(fs.readFileSync("public/sw.js", "utf8"), {
      signOut: ["/logout"],
      keptForReading: ["/"],
    }),
    context,
  );
  const run = async (type: string, event: Record<string, unknown>) => {
    const pending: Promise<unknown>[] = [];
    let answer: Promise<Response> | undefined;
    handlers[type]!({
      ...event,
      waitUntil: (p: Promise<unknown>) => pending.push(p),
      respondWith: (p: Promise<Response>) => {
        answer = Promise.resolve(p);
      },
    });
    const response = await answer;
    while (pending.length) await pending.shift();
    return response;
  };
  return {
    store,
    install: () => run("install", {}),
    /** A navigation (or a data request) while the server answers in `language`. */
    visit: (path: string, language: string, mode = "navigate") => {
      network = async () =>
        new Response("<!doctype html><html><body><p>page</p></body></html>", {
          headers: {
            "Content-Type": "text/html; charset=utf-8",
            [LANGUAGE_HEADER]: language,
            "X-Fairshake-User": "7",
          },
        });
      return run("fetch", {
        request: { url: ORIGIN + path, method: "GET", mode },
      });
    },
    /** The page a navigation gets with the network gone. */
    offline: async (path: string) => {
      network = () => Promise.reject(new TypeError("Failed to fetch"));
      const answer = await run("fetch", {
        request: { url: ORIGIN + path, method: "GET", mode: "navigate" },
      });
      return answer!.text();
    },
  };
}

const inLanguage = (language: Language) =>
  `<h1>${escapeHtml(CATALOGS[language]["offlinePage.heading"]!)}</h1>`;

describe("the worker's offline page", () => {
  it("keeps every language's page at install", async () => {
    const w = startWorker(["en-US"]);
    await w.install();
    const kept = [...w.store.values()].flatMap((c) => [...c.entries.keys()]);
    for (const language of LANGUAGES)
      expect(kept).toContain(ORIGIN + offlinePagePath(language));
  });

  it("is in the browser's language before any page was answered", async () => {
    const w = startWorker(["fr-FR", "de-AT", "en"]);
    await w.install();
    expect(await w.offline("/help")).toContain(inLanguage("de"));
    const english = startWorker(["fr-FR"]);
    await english.install();
    expect(await english.offline("/help")).toContain(inLanguage("en"));
  });

  it("follows the language the server last answered in, pages and data alike", async () => {
    const w = startWorker(["en-US"]);
    await w.install();
    await w.visit("/", "pt-BR");
    expect(await w.offline("/help")).toContain(inLanguage("pt-BR"));
    await w.visit("/help.data", "es", "cors");
    expect(await w.offline("/help")).toContain(inLanguage("es"));
    // A language the app does not speak changes nothing.
    await w.visit("/", "fr");
    expect(await w.offline("/help")).toContain(inLanguage("es"));
  });

  it("says a kept page's banner in that language too", async () => {
    const w = startWorker(["en-US"]);
    await w.install();
    await w.visit("/", "de");
    const copy = await w.offline("/");
    expect(copy).toContain("<p>page</p>");
    expect(copy).toMatch(
      /Keine Verbindung – diese Seite wird so gezeigt, wie sie am .+ war\.<\/div>/,
    );
    expect(copy).not.toContain("Offline — showing");
    await w.visit("/", "en");
    expect(await w.offline("/")).toContain(
      "Offline — showing this page as it was at ",
    );
  });

  it("stays in that language when a new worker installs", async () => {
    const w = startWorker(["en-US"]);
    await w.install();
    await w.visit("/", "de");
    const next = startWorker(["en-US"], w.store);
    await next.install();
    expect(await next.offline("/help")).toContain(inLanguage("de"));
  });
});
