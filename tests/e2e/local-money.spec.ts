// A bet in a person's own language and money, typed the local way
// (docs/product-rules.md#languages, #currencies,
// #amounts-typed-the-local-way), with JavaScript and without: a German
// browser makes a € bet typing `1.000` (one thousand, never one euro), a
// friend joins, the creator concedes and pays by card, the winner sees
// the payout after the fee; the same in
// Brazilian Portuguese with reais. Every label is read from the page
// language's catalog, so English left on a step fails it.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import {
  createPerson,
  expect,
  jsEnabled,
  signIn,
  test,
  untilHydrated,
} from "./fixtures";

type Catalog = Record<string, string>;

/** A language's messages, every file of app/locales/<language>/ merged. */
function catalog(language: string): Catalog {
  const folder = path.resolve("app/locales", language);
  return Object.assign(
    {},
    ...fs
      .readdirSync(folder)
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(fs.readFileSync(path.join(folder, f), "utf8"))),
  ) as Catalog;
}
type Person = Awaited<ReturnType<typeof createPerson>>;

const fill = (message: string, values: Record<string, string>) =>
  message.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "");

/** An amount as the page writes it, whatever space Intl puts before the sign. */
const money = (text: string) =>
  new RegExp(text.replace(/[.$]/g, "\\$&").replace(/ /g, "\\s"));

const CASES = [
  {
    browser: "de-DE",
    language: "de",
    catalog: catalog("de"),
    currency: "EUR",
    typed: "1.000",
    amount: money("1.000,00 €"),
    fee: money("25,00 €"),
    payout: money("975,00 €"),
  },
  {
    browser: "pt-BR",
    language: "pt-BR",
    catalog: catalog("pt-BR"),
    currency: "BRL",
    typed: "1.000",
    amount: money("R$ 1.000,00"),
    fee: money("R$ 25,00"),
    payout: money("R$ 975,00"),
  },
];

const inDays = (n: number) =>
  new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function as(context: BrowserContext, baseURL: string, who: Person) {
  await context.clearCookies();
  await signIn(context, baseURL, who.cookie);
}

for (const c of CASES)
  test.describe(`a ${c.currency} bet in ${c.language}`, () => {
    test.use({
      locale: c.browser,
      extraHTTPHeaders: { "Accept-Language": `${c.browser},en;q=0.5` },
    });
    const t = (key: string, values: Record<string, string> = {}) =>
      fill(c.catalog[key]!, values);

    async function createBet(page: Page, js: boolean) {
      await page.goto("/create-bet");
      await expect(page.locator("html")).toHaveAttribute("lang", c.language);
      const submit = page.getByRole("button", { name: t("create.submit") });
      if (js) await untilHydrated(submit);
      await page.getByLabel(t("betForm.title"), { exact: true }).fill("Derby");
      await page
        .getByLabel(t("betForm.description"), { exact: true })
        .fill("Wer gewinnt das Derby?");
      await page.getByLabel(t("betForm.deadlineDate")).fill(inDays(3));
      await page.getByLabel(t("betForm.currency")).selectOption(c.currency);
      // "Einsatz (€)": the sign follows the chosen currency with JavaScript.
      const amountLabel = c.catalog["betForm.amount"]!.split("(")[0]!;
      await page
        .getByRole("textbox", { name: new RegExp(`^${amountLabel}`) })
        .fill(c.typed);
      await submit.click();
      await expect(page).toHaveURL(/\/bet\/\d+$/);
      return Number(/\/bet\/(\d+)$/.exec(page.url())![1]);
    }

    test("typed 1.000 is one thousand: create, join, concede, pay by card", async ({
      page,
      context,
      baseURL,
    }, testInfo) => {
      const js = jsEnabled(testInfo);
      const creator = await createPerson("lm");
      const friend = await createPerson("lf");

      await as(context, baseURL!, creator);
      const betId = await createBet(page, js);
      await expect(page.getByText(c.amount).first()).toBeVisible();
      await expect(page.getByTestId("bet-fee")).toHaveText(c.fee);
      await expect(page.getByTestId("bet-payout")).toHaveText(c.payout);
      await expect(page.getByText(t("bet.fee"))).toBeVisible();

      // The friend opens the bet and joins it, in their own language.
      await as(context, baseURL!, friend);
      await page.goto(`/bet/${betId}`);
      const join = page.getByRole("button", { name: c.amount });
      if (js) await untilHydrated(join);
      await join.click();
      await expect(
        page.getByText(t("bet.participantCount", { count: "2" })),
      ).toBeVisible();

      // The creator concedes: the bet is settled, and they pay the amount.
      await as(context, baseURL!, creator);
      await page.goto(`/settle-bet/${betId}`);
      await expect(page.getByText(t("winner.legend"))).toBeVisible();
      const settle = page.getByRole("button", { name: t("settle.submit") });
      if (js) await untilHydrated(settle);
      await page.getByLabel(new RegExp(`^${friend.username}`)).check();
      await settle.click();
      await expect(page).toHaveURL(new RegExp(`/payment/${betId}$`));
      const summary = page.getByRole("region", { name: t("pay.summary") });
      await expect(
        summary.getByText(t("money.youPay"), { exact: true }),
      ).toBeVisible();
      await expect(summary.getByText(c.amount).first()).toBeVisible();
      // The card, in the page's language, charged the bet's currency.
      await page.getByRole("button", { name: t("pay.continue") }).click();
      await expect(page).toHaveURL(new RegExp(`/checkout/${betId}$`));
      const pay = page.getByRole("button", { name: c.amount });
      if (js) await untilHydrated(pay);
      await page
        .getByLabel(t("checkout.cardNumber"))
        .fill("4242 4242 4242 4242");
      await page.getByLabel(t("checkout.expiry")).fill("12/40");
      await page.getByLabel(t("checkout.cvc")).fill("123");
      await pay.click();
      await expect(
        page.getByText(t("checkout.successTitle"), { exact: true }).first(),
      ).toBeVisible();

      // The winner's history: the payout after the fee, in their language.
      await as(context, baseURL!, friend);
      await page.goto("/financial-history");
      await expect(page.locator("html")).toHaveAttribute("lang", c.language);
      await expect(page.getByText(c.payout).first()).toBeVisible();
      await expect(page.getByText(c.fee).first()).toBeVisible();
    });
  });
