// The human pages of discovery in real Chromium: the landing page's copy buttons and /docs "try it".
import { expect, test } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => app?.stop());

test("the landing page copies the agent prompt", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.baseUrl });
  await page.goto(app.baseUrl);
  await expect(page.getByRole("heading", { name: "Connect an agent" })).toBeVisible();
  await page.getByRole("button", { name: "Copy" }).first().click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`${app.baseUrl}/api/onboard`);
});

test("/docs publishes a drop with try it", async ({ page }) => {
  const token = await app.createToken("docs-user");
  await page.goto(`${app.baseUrl}/docs`);
  const operation = page.locator("details#createDrop");
  await operation.locator("summary").first().click();
  await operation.getByLabel("API token").fill(token);
  await operation.getByRole("button", { name: "Send POST /api/drops" }).click();
  await expect(operation.locator("pre[aria-live]")).toContainText("201");
  await expect(operation.locator("pre[aria-live]")).toContainText(`"url": "${app.baseUrl}/p/`);

  const list = page.locator("details#listDrops");
  await list.locator("summary").first().click();
  await list.getByLabel("API token").fill(token);
  await list.getByLabel("query string").fill("metadata.project=alpha");
  await list.getByRole("button", { name: "Send GET /api/drops" }).click();
  await expect(list.locator("pre[aria-live]")).toContainText('"total_items": 1');
});
