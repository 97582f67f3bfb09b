// More pages in the page's language (docs/product-rules.md#languages): a
// German browser reads Friends, Discover and the fee calculator in German,
// with JavaScript and without.
import { expect, test } from "./fixtures";

test.describe("a German browser", () => {
  test.use({
    locale: "de-DE",
    extraHTTPHeaders: { "Accept-Language": "de-DE,de;q=0.9" },
  });

  test("reads Friends and Discover in German", async ({
    signedInPage: page,
  }) => {
    await page.goto("/friends");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { name: "Freunde" })).toBeVisible();
    await expect(page).toHaveTitle("Freunde · Fairshake");
    await page.getByRole("link", { name: "Hinzufügen" }).click();
    await page.getByLabel("Nach Benutzernamen suchen").fill("a");
    await page.getByRole("button", { name: "Suchen" }).click();
    await expect(page.getByText("Suchbegriff zu kurz")).toBeVisible();

    await page.goto("/search");
    await expect(
      page.getByRole("heading", { name: "Entdecken" }),
    ).toBeVisible();
    await expect(
      page.getByRole("heading", { name: "Wette per Code finden" }),
    ).toBeVisible();
  });

  test("reads amounts the German way in the fee calculator", async ({
    page,
  }) => {
    await page.goto("/help/fees?tab=calculator");
    await expect(
      page.getByRole("heading", { name: "Plattformgebühren" }),
    ).toBeVisible();
    // A German page counts in euros unless told otherwise.
    await expect(page.getByLabel("Währung")).toHaveValue("EUR");
    await page.getByLabel("Einsatz", { exact: true }).fill("1.000");
    await page.getByRole("button", { name: "Berechnen" }).click();
    await expect(page.getByLabel("Aufschlüsselung der Gebühr")).toContainText(
      "-25,00 €",
    );
    // '1,000' could mean one on a German page: refused, never guessed.
    await page.getByLabel("Einsatz", { exact: true }).fill("1,000");
    await page.getByRole("button", { name: "Berechnen" }).click();
    await expect(
      page.getByText("Schreib tausend als 1.000 oder 1000."),
    ).toBeVisible();
  });
});
