// The sign-in page in a German browser (docs/product-rules.md#languages):
// nobody is signed in, so the browser's Accept-Language decides, and the
// page, its form's refusals and the password pages read German. /auth has
// no React, so both projects see the server's page.
import { expect, test } from "./fixtures";

test.describe("a German browser, signed out", () => {
  test.use({
    locale: "de-DE",
    extraHTTPHeaders: { "Accept-Language": "de-DE,de;q=0.9" },
  });

  test("reads /auth in German, refusals included, and the way to a new password", async ({
    page,
  }) => {
    await page.goto("/auth");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page).toHaveTitle("Anmelden oder registrieren · Fairshake");
    await expect(
      page.getByRole("heading", { name: "Willkommen zurück" }),
    ).toBeVisible();
    const login = page.getByRole("form", { name: "Anmelden" });
    await login.getByLabel("Benutzername").fill("nobody-at-all");
    await login.getByLabel("Passwort", { exact: true }).fill("wrong-password");
    await login.getByRole("button", { name: "Anmelden" }).click();
    await expect(
      page.getByText("Benutzername oder Passwort falsch"),
    ).toBeVisible();
    await expect(page.getByText("Anmeldung fehlgeschlagen")).toBeVisible();

    await page.getByRole("link", { name: "Registrieren" }).click();
    await expect(
      page.getByRole("heading", { name: "Erstelle dein Konto" }),
    ).toBeVisible();
    await page.getByRole("link", { name: "Anmelden" }).click();
    await page.getByRole("link", { name: "Passwort vergessen" }).click();
    await expect(
      page.getByRole("heading", { name: "Passwort vergessen?" }),
    ).toBeVisible();
    await page.getByLabel("Benutzername oder E-Mail").fill("nobody-at-all");
    await page
      .getByRole("button", { name: "Link zum Zurücksetzen senden" })
      .click();
    await expect(
      page.getByText(
        "Wenn ein Konto passt, haben wir einen Link zum Zurücksetzen an seine E-Mail-Adresse geschickt.",
      ),
    ).toBeVisible();
  });
});
