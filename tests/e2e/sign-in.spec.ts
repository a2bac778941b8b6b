// The app's own sign-in, sign-out and sign-in error pages in real Chromium, on a phone and a desktop:
// from the landing page's header to the dashboard, a refused username explained next to its field,
// signing out, and a provider failure in plain words. axe checks these pages in their states in
// tests/helpers/accessibility-pages.ts.
import { expect, test, type Page } from "@playwright/test";
import { LOCAL_LOGIN_RULE } from "@/lib/schemas/accounts";
import { SIGN_IN_ERROR_PAGE_MESSAGES, SIGN_IN_ERRORS } from "@/lib/auth/sign-in-messages";
import { hasHorizontalPageScroll, SCREENS } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => app?.stop());

async function checkPage(page: Page, name: string, width: number): Promise<void> {
  expect(await hasHorizontalPageScroll(page), `${name} scrolls sideways at ${width}`).toBe(false);
}

for (const screen of SCREENS) {
  test(`from the landing page's Sign in to the dashboard and out again (${screen.width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
    const page = await context.newPage();
    const login = `person${screen.width}`;

    await page.goto(app.baseUrl);
    await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(page.getByText(LOCAL_LOGIN_RULE)).toBeVisible();
    await checkPage(page, "sign-in", screen.width);

    // A name the rule refuses, sent as a hand-made form would (the browser's own check is the pattern).
    const username = page.getByLabel("Username");
    await username.evaluate((input) => input.removeAttribute("pattern"));
    await username.fill("not a name!");
    await page.getByRole("button", { name: "Sign in with a local username" }).click();
    await expect(page).toHaveURL(/error=CredentialsSignin/);
    await expect(page.locator("#username-error")).toHaveText(SIGN_IN_ERRORS.CredentialsSignin);
    await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
    await checkPage(page, "sign-in-refused", screen.width);

    await page.getByLabel("Username").fill(login);
    await page.getByRole("button", { name: "Sign in with a local username" }).click();
    await expect(page).toHaveURL(`${app.baseUrl}/dashboard`);
    await expect(page.getByTestId("signed-in-as")).toHaveText(login);

    // Signed in, the landing page's header leads to the dashboard.
    await page.goto(app.baseUrl);
    await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");

    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByRole("link", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signout$/);
    await expect(page.getByTestId("signed-in-as")).toHaveText(login);
    await checkPage(page, "sign-out", screen.width);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(`${app.baseUrl}/`);
    await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Sign in" })).toBeVisible();
    await page.goto(`${app.baseUrl}/signout`);
    await expect(page.getByRole("heading", { name: "Signed out" })).toBeVisible();
    await checkPage(page, "signed-out", screen.width);
    await context.close();
  });

  test(`a failure next-auth cannot retry by itself is explained, with a way back (${screen.width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/api/auth/error?error=Configuration`);
    await expect(page).toHaveURL(`${app.baseUrl}/signin/error?error=Configuration`);
    await expect(page.locator('[data-notice="sign-in-failed"]')).toHaveText(SIGN_IN_ERROR_PAGE_MESSAGES.Configuration);
    await checkPage(page, "sign-in-error", screen.width);
    await page.getByRole("link", { name: "Try again" }).click();
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await expect(page.getByRole("button", { name: "Sign in with a local username" })).toBeVisible();
    await context.close();
  });
}

test("without JavaScript, the sign-in form still signs in and comes back to where it was asked for", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${app.baseUrl}/signin?callbackUrl=${encodeURIComponent("/dashboard/tokens")}`);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.getByLabel("Username").fill("nojs");
  await page.getByRole("button", { name: "Sign in with a local username" }).click();
  await expect(page).toHaveURL(`${app.baseUrl}/dashboard/tokens`);
  await context.close();
});
