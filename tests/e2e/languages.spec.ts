// The page's language (docs/product-rules.md#languages), with JavaScript and
// without: the footer's picker is a plain form that switches the page's
// language and <html lang>, and a German browser gets German pages.
import { expect, jsEnabled, test, untilHydrated } from "./fixtures";

test.describe("languages", () => {
  test("the footer's picker switches the language, and <html lang> follows", async ({
    signedInPage: page,
  }, testInfo) => {
    await page.goto("/create-bet");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(
      page.getByRole("heading", { name: "Create a Bet" }),
    ).toBeVisible();
    const footer = page.locator("footer");
    if (jsEnabled(testInfo)) await untilHydrated(footer.getByRole("button"));

    await footer.getByLabel("Language").selectOption("de");
    await footer.getByRole("button", { name: "Change" }).click();
    // Back on the same page, now in German.
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page).toHaveURL(/\/create-bet$/);
    await expect(
      page.getByRole("heading", { name: "Wette erstellen" }),
    ).toBeVisible();
    await expect(
      page.getByRole("link", { name: "Meine Wetten" }),
    ).toBeVisible();
    await expect(footer.getByLabel("Sprache")).toHaveValue("de");
    await expect(page).toHaveTitle("Wette erstellen · Fairshake");

    // It stays German on the next page, and goes back the same way.
    await page.goto("/");
    await expect(
      page.getByRole("heading", { name: "Schnellzugriff" }),
    ).toBeVisible();
    if (jsEnabled(testInfo)) await untilHydrated(footer.getByRole("button"));
    await footer.getByLabel("Sprache").selectOption("pt-BR");
    await footer.getByRole("button", { name: "Ändern" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
    await expect(
      page.getByRole("heading", { name: "Ações rápidas" }),
    ).toBeVisible();
    await footer.getByLabel("Idioma").selectOption("en");
    await footer.getByRole("button", { name: "Alterar" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(
      page.getByRole("heading", { name: "Quick Actions" }),
    ).toBeVisible();
  });

  test.describe("a browser that asks for German", () => {
    test.use({
      locale: "de-DE",
      extraHTTPHeaders: { "Accept-Language": "de-DE,de;q=0.9" },
    });

    test("hydrates in German with no flash of English", async ({
      signedInPage: page,
    }, testInfo) => {
      test.skip(!jsEnabled(testInfo), "hydration needs JavaScript");
      const mismatches: string[] = [];
      page.on("console", (m) => {
        if (/hydrat/i.test(m.text())) mismatches.push(m.text());
      });
      await page.goto("/create-bet");
      const submit = page.getByRole("button", { name: "Wette erstellen" });
      await untilHydrated(submit);
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expect(submit).toBeVisible();
      await expect(page.getByLabel(/^Einsatz/)).toBeVisible();
      expect(mismatches).toEqual([]);
    });

    // A page carries only its own words (its message areas): a client
    // navigation must bring the next page's with its data.
    test("a client navigation brings the next page's words", async ({
      signedInPage: page,
    }, testInfo) => {
      test.skip(!jsEnabled(testInfo), "a client navigation needs JavaScript");
      await page.goto("/");
      const menu = page.getByRole("navigation", { name: "Hauptmenü" });
      await untilHydrated(menu.getByRole("link", { name: "Meine Wetten" }));
      await menu.getByRole("link", { name: "Meine Wetten" }).click();
      await expect(
        page.getByRole("heading", { name: "Meine Wetten", level: 1 }),
      ).toBeVisible();
      await menu.getByRole("link", { name: "Wette erstellen" }).click();
      await expect(
        page.getByRole("heading", { name: "Wette erstellen", level: 1 }),
      ).toBeVisible();
      await expect(page.getByLabel(/^Einsatz/)).toBeVisible();
      // No key shown as itself (`create.heading`) anywhere.
      expect(await page.locator("main").innerText()).not.toMatch(
        /\b[a-z][a-zA-Z]+\.[a-z][a-zA-Z]+\b/,
      );
    });

    test("a bet kept on the phone offline says so in German", async ({
      signedInPage: page,
      context,
    }, testInfo) => {
      test.skip(
        !jsEnabled(testInfo),
        "keeping a form offline needs JavaScript",
      );
      await page.goto("/create-bet");
      const submit = page.getByRole("button", { name: "Wette erstellen" });
      await untilHydrated(submit);
      await page.getByLabel("Titel", { exact: true }).fill("Derby");
      await page
        .getByLabel("Beschreibung", { exact: true })
        .fill("Wer gewinnt das Derby?");
      const date = new Date(Date.now() + 3 * 86_400_000).toISOString();
      await page.getByLabel("Fristdatum").fill(date.slice(0, 10));
      await context.setOffline(true);
      await submit.click();
      await expect(
        page.getByText(
          "Auf diesem Handy gespeichert – wird gesendet, sobald du wieder online bist.",
        ),
      ).toBeVisible();
      const count = page.getByRole("button", { name: "1 warten aufs Senden" });
      await count.click();
      await expect(
        page.getByRole("heading", { name: "Auf diesem Handy gespeichert" }),
      ).toBeVisible();
      await expect(page.getByText("Wartet aufs Senden")).toBeVisible();
      // The kept action's own name, from its route's message key.
      await expect(page.getByText("Eine Wette erstellen")).toBeVisible();
      await context.setOffline(false);
    });

    test("gets German pages without picking anything", async ({ page }) => {
      await page.goto("/auth");
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expect(page.locator("footer").getByLabel("Sprache")).toHaveValue(
        "de",
      );
    });

    // The person signs up from this browser too, so German is also saved.
    test("someone who signed up from it sees home in German", async ({
      signedInPage: page,
    }) => {
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expect(
        page.getByRole("heading", { name: "Schnellzugriff" }),
      ).toBeVisible();
      await expect(
        page.getByRole("link", { name: "Neue Wette" }),
      ).toBeVisible();
    });
  });
});
