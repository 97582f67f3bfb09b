import { describe, expect, it } from "vitest";
import { matchAcceptLanguage, resolveLanguage } from "./language";

describe("matchAcceptLanguage", () => {
  it.each([
    ["de-DE", "de"],
    ["de-AT,de;q=0.9,en;q=0.8", "de"],
    ["es-MX", "es"],
    ["es-419,es;q=0.9", "es"],
    ["pt", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["pt-BR,pt;q=0.9,en-US;q=0.8", "pt-BR"],
    ["en-GB", "en"],
    ["fr-FR,fr;q=0.9,de;q=0.8,en;q=0.7", "de"],
    ["fr-FR,en;q=0.5,es;q=0.6", "es"],
    ["en;q=0.8,de;q=0.8", "en"],
    ["de;q=0,es;q=0.1", "es"],
    ["ja,zh-CN", null],
    ["*", null],
    ["", null],
    ["de;q=2", null],
    ["garbage;;,,", null],
  ])("%j → %j", (header, expected) => {
    expect(matchAcceptLanguage(header)).toBe(expected);
  });
});

describe("resolveLanguage: cookie, then saved, then Accept-Language, else English", () => {
  it.each([
    [{ cookie: "es", saved: "de", acceptLanguage: "pt-BR" }, "es"],
    [{ cookie: "pt-BR" }, "pt-BR"],
    [{ cookie: "xx", saved: "de", acceptLanguage: "es" }, "de"],
    [{ cookie: null, saved: "de", acceptLanguage: "es" }, "de"],
    [{ saved: null, acceptLanguage: "es-MX,en;q=0.5" }, "es"],
    [{ saved: "fr", acceptLanguage: "de-AT" }, "de"],
    [{ acceptLanguage: "pt-PT" }, "pt-BR"],
    [{ acceptLanguage: "ja" }, "en"],
    [{}, "en"],
    [{ cookie: "EN" }, "en"],
  ])("%j → %s", (input, expected) => {
    expect(resolveLanguage(input)).toBe(expected);
  });
});
