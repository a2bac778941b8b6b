// The human pages of discovery in real Chromium: the landing page's copy buttons, and /docs: "try it" and its folds.
import { expect, test, type Page } from "@playwright/test";
import { hasHorizontalPageScroll, SCREENS } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";
import { signInToDashboard } from "../helpers/dashboard";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => app?.stop());

test("the landing page copies the agent prompt", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.baseUrl });
  await page.goto(app.baseUrl);
  await expect(page.getByRole("heading", { name: "Connect an agent" })).toBeVisible();
  await page.getByRole("button", { name: "Copy agent prompt" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`${app.baseUrl}/api/onboard`);
});

test("on a phone, the landing page copies the MCP URL and shows how each assistant adds it", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.baseUrl });
  const page = await context.newPage();
  await page.goto(app.baseUrl);
  await expect(page.getByRole("heading", { name: "Or add htmldrop by URL" })).toBeVisible();
  const urlSnippet = page.locator("div", { has: page.locator("pre", { hasText: new RegExp(`^${app.baseUrl}/mcp$`) }) }).last();
  await urlSnippet.getByRole("button", { name: "Copy" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.baseUrl}/mcp`);

  // Each client's steps are folded until asked for.
  const cursor = page.locator('details[data-client="cursor"]');
  await expect(cursor.getByText("~/.cursor/mcp.json").first()).toBeHidden();
  await cursor.locator("summary").click();
  await expect(cursor.locator("pre")).toContainText(`"url": "${app.baseUrl}/mcp"`);
  const inspector = page.locator('details[data-client="inspector"]');
  await inspector.locator("summary").click();
  await expect(inspector).toContainText("npx @modelcontextprotocol/inspector");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `the landing page overflows by ${overflow}px`).toBeLessThanOrEqual(0);
  await context.close();
});

test("/docs publishes a drop with try it", async ({ page }) => {
  const token = await app.createToken("docs-user");
  await page.goto(`${app.baseUrl}/docs`);
  const operation = page.locator("article#createDrop");
  await operation.getByText("Try it").click();
  await operation.getByLabel("API token").fill(token);
  await operation.getByRole("button", { name: "Send POST /api/drops" }).click();
  await expect(operation.locator("pre[aria-live]")).toContainText("201");
  await expect(operation.locator("pre[aria-live]")).toContainText(`"url": "${app.baseUrl}/p/`);

  const list = page.locator("article#listDrops");
  await list.getByText("Try it").click();
  await list.getByLabel("API token").fill(token);
  await list.getByLabel("query string").fill("metadata.project=alpha");
  await list.getByRole("button", { name: "Send GET /api/drops" }).click();
  await expect(list.locator("pre[aria-live]")).toContainText('"total_items": 1');
});

test("/docs opens a schema's declaration from the operations that use it, and from its address", async ({ page }) => {
  await page.goto(`${app.baseUrl}/docs`);
  const declaration = page.locator("details#schema-CreateDropBody pre");
  await expect(declaration).toHaveCount(0);
  await page.locator("article#createDrop").getByRole("link", { name: "CreateDropBody" }).click();
  await expect(declaration).toContainText("html: string");
  // Closed again, the same link opens it again although the address already names it.
  await page.locator("details#schema-CreateDropBody > summary").click();
  await expect(declaration).toHaveCount(0);
  await page.locator("article#createDrop").getByRole("link", { name: "CreateDropBody" }).click();
  await expect(declaration).toContainText("title: string");

  await page.goto(`${app.baseUrl}/docs#schema-Drop`);
  await expect(page.locator("details#schema-Drop pre")).toContainText("slug: string");
  await page.locator("details#errors > summary").click();
  await expect(page.locator("details#errors")).toContainText("version_conflict");
});

/** Opens every fold of the page at once: clicking each of /docs's summaries in turn laid the long page out again each time. */
async function openEveryFold(page: Page): Promise<void> {
  await page.locator("details").evaluateAll((folds) => folds.forEach((fold) => ((fold as HTMLDetailsElement).open = true)));
}

test("on a phone, /docs fits the screen with every fold open", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${app.baseUrl}/docs`);
  await openEveryFold(page);
  await expect(page.locator("details#schema-AuthorizationServerMetadata pre")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `/docs overflows by ${overflow}px`).toBeLessThanOrEqual(0);
  await context.close();
});

/** No sideways page scroll, axe in light and dark, and a screenshot kept as an artifact. */
// axe and screenshots of these pages at both sizes, in both schemes: tests/helpers/accessibility-pages.ts.
test.describe("for a person", () => {
  test("the landing page: a header with Sign in, what a viewer sees, where the MCP token comes from", async ({ page }) => {
    await page.goto(app.baseUrl);
    const header = page.getByRole("navigation", { name: "Site" });
    await expect(header.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/api/auth/signin?callbackUrl=%2Fdashboard");
    await expect(page.getByRole("img", { name: /Example: a drop named Weekly signups/ })).toBeVisible();
    await expect(page.getByRole("link", { name: "your tokens" })).toHaveAttribute("href", "/dashboard/tokens");
    await header.getByRole("link", { name: "API reference" }).click();
    await expect(page).toHaveURL(`${app.baseUrl}/docs`);
  });

  test("/docs: a link home, and Try it explains where a token comes from", async ({ page }) => {
    await page.goto(`${app.baseUrl}/docs`);
    await expect(page.getByRole("link", { name: "htmldrop", exact: true })).toHaveAttribute("href", "/");
    const create = page.locator("article#createDrop");
    await create.getByText("Try it").click();
    await expect(create.getByTestId("token-help")).toContainText("No token yet?");
    await expect(create.getByTestId("token-help").getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/api/auth/signin?callbackUrl=%2Fdashboard%2Ftokens");
  });

  test("the onboarding guide, opened in a browser: the same text, as a page", async ({ page }) => {
    await page.goto(`${app.baseUrl}/api/onboard`);
    await expect(page.getByRole("heading", { level: 2, name: /1\. Sign in once/ })).toBeVisible();
    await expect(page.locator("pre code").first()).toContainText(`${app.baseUrl}/api/auth/start`);
  });

  for (const screen of SCREENS) {
    test(`at ${screen.width} px, the landing page, /docs and the onboarding guide never scroll sideways`, async ({ browser }) => {
      const page = await browser.newPage({ viewport: { width: screen.width, height: screen.height } });
      for (const path of ["/", "/docs", "/api/onboard"]) {
        await page.goto(`${app.baseUrl}${path}`);
        expect(await hasHorizontalPageScroll(page), `${path} at ${screen.width}`).toBe(false);
      }
      await page.close();
    });
  }
});

test("/docs tells a signed-in person to make a token on the tokens page", async ({ page }) => {
  await signInToDashboard(page, app, "docs-reader");
  await page.goto(`${app.baseUrl}/docs`);
  await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Dashboard" })).toBeVisible();
  const create = page.locator("article#createDrop");
  await create.getByText("Try it").click();
  await expect(create.getByTestId("token-help")).toContainText("Signed in as docs-reader");
  await create.getByTestId("token-help").getByRole("link", { name: "your tokens page" }).click();
  await expect(page).toHaveURL(`${app.baseUrl}/dashboard/tokens`);
});

test("/docs shows no Markdown syntax in its text", async ({ page }) => {
  await page.goto(`${app.baseUrl}/docs`);
  await openEveryFold(page);
  const text = await page.locator("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const code of copy.querySelectorAll("pre, code, textarea, input")) code.remove();
    return copy.textContent ?? "";
  });
  expect(text).not.toContain("`");
  expect(text).not.toMatch(/\*\*\S/);
});
