// The dashboard's "New token" in real Chromium, on a phone and a desktop: a limited token is made, its
// secret is shown once with ready-to-paste snippets, and the API then holds it to its limits.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Browser } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { expectNoAxeViolationsInBothSchemes, SCREENS, screenshotPath } from "../helpers/a11y";
import { createDrop, signInToDashboard } from "../helpers/dashboard";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => {
  await app?.stop();
});

const DAY_MS = 86_400_000;
const TOKEN_PATTERN = /^hd_[0-9A-Za-z]{40}$/;

async function createLimitedToken(browser: Browser, options: { width: number; login: string; javaScript: boolean }) {
  const agent = await app.createToken(options.login, "agent");
  const allowed = await createDrop(app, agent, { title: `Allowed report ${options.width}` });
  const other = await createDrop(app, agent, { title: `Other report ${options.width}` });

  const context = await browser.newContext({
    viewport: { width: options.width, height: 844 },
    javaScriptEnabled: options.javaScript,
    ...(options.javaScript ? { permissions: ["clipboard-read", "clipboard-write"] } : {}),
  });
  const page = await context.newPage();
  await signInToDashboard(page, app, options.login, "/dashboard/tokens");
  // The list comes first; making a token is behind a button, with each way's lifetime stated.
  await expect(page.getByTestId("token-lifetimes")).toContainText("device code");
  await page.getByText("Create a token…").click();
  const form = page.getByRole("form", { name: "New token" });
  await form.getByLabel("Label").fill(`ci ${options.width}`);
  // Read-only, one drop, a week.
  await expect(form.getByRole("checkbox", { name: /drops:read/ })).toBeChecked();
  await form.getByRole("checkbox", { name: /drops:write/ }).uncheck();
  await expect(form.getByRole("checkbox", { name: /tokens:manage/ })).not.toBeChecked();
  await form.getByRole("radio", { name: /Only the drops checked below/ }).check();
  await form.getByRole("checkbox", { name: new RegExp(allowed.slug) }).check();
  await form.getByLabel("Expires").selectOption("7");
  const before = Date.now();
  await form.getByRole("button", { name: "Create token" }).click();

  const shown = page.getByTestId("new-token");
  await expect(shown).toBeVisible();
  await expect(page.getByRole("form", { name: "New token" }).getByRole("status")).toHaveText("Token created. Copy it now: it is shown only this once.");
  const token = (await page.getByTestId("new-token-value").textContent())!.trim();
  expect(token).toMatch(TOKEN_PATTERN);
  await expect(page.getByTestId("new-token-limits")).toContainText(`only ${allowed.slug}`);
  const mcp = JSON.parse((await page.getByTestId("mcp-snippet").textContent())!);
  expect(mcp).toEqual({ mcpServers: { htmldrop: { type: "http", url: `${app.baseUrl}/mcp`, headers: { Authorization: `Bearer ${token}` } } } });
  const cli = (await page.getByTestId("cli-snippet").textContent())!;
  expect(cli).toContain(`export HTMLDROP_TOKEN='${token}'`);
  expect(cli).toContain(`curl -s "${app.baseUrl}/api/me" -H "Authorization: Bearer $HTMLDROP_TOKEN"`);

  if (options.javaScript) {
    await shown.getByRole("button", { name: "Copy new token" }).click();
    await expect(shown.getByRole("status").first()).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  }

  // The table lists the new token with its limits.
  const me = await app.api("/api/me", { token });
  const row = page.getByTestId("token-table").locator(`tr[data-token-id="${me.body.token.id}"]`);
  await expect(row).toContainText(`ci ${options.width}`);
  await expect(row.getByTestId("token-scopes")).toHaveText("drops:read");
  await expect(row.getByTestId("token-drops")).toHaveText(allowed.slug);
  await expect(row.getByTestId("token-expires")).toContainText("UTC");

  // Nothing sticks out sideways, even with the secret and the snippets on the page.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `tokens page at ${options.width}px overflows by ${overflow}px`).toBeLessThanOrEqual(0);
  const outDir = join(process.cwd(), "test-results", "dashboard-screens");
  mkdirSync(outDir, { recursive: true });
  await page.screenshot({ path: join(outDir, `new-token-${options.width}${options.javaScript ? "" : "-nojs"}.png`), fullPage: true });

  // The API holds the token to exactly what the form chose.
  expect(me.body.token).toMatchObject({ label: `ci ${options.width}`, scopes: ["drops:read"], drops: [allowed.slug] });
  expect(me.body.token.expires_at).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 60_000);
  expect(me.body.token.expires_at).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
  expect((await app.api(`/api/drops/${allowed.slug}`, { token })).status).toBe(200);
  const list = await app.api("/api/drops", { token });
  expect(list.body.data.map((drop: { slug: string }) => drop.slug)).toEqual([allowed.slug]);
  const foreign = await app.api(`/api/drops/${other.slug}`, { token });
  expect(foreign.status).toBe(403);
  expect(foreign.body.error.code).toBe("forbidden");
  const write = await app.api(`/api/drops/${allowed.slug}`, { method: "PATCH", token, body: { title: "changed" } });
  expect(write.status).toBe(403);
  expect(write.body.error.details).toEqual({ required_scope: "drops:write" });

  // Shown once: the page never shows the secret again.
  await page.goto(`${app.baseUrl}/dashboard/tokens`);
  await expect(page.getByTestId("token-table")).toContainText(`ci ${options.width}`);
  expect(await page.content()).not.toContain(token);
  await context.close();
}

for (const width of [390, 1280]) {
  test(`an owner creates a limited token at ${width} px, sees the secret once, and the API holds it to its limits`, async ({ browser }) => {
    await createLimitedToken(browser, { width, login: `tina${width}`, javaScript: true });
  });
}

test("the New token form works without JavaScript", async ({ browser }) => {
  await createLimitedToken(browser, { width: 1280, login: "nojs", javaScript: false });
});

for (const javaScript of [true, false]) {
  test(`a refused New token keeps the choices and says why, ${javaScript ? "with" : "without"} JavaScript`, async ({ browser }) => {
    const login = javaScript ? "rita" : "ritanojs";
    const agent = await app.createToken(login, "agent");
    const drop = await createDrop(app, agent, { title: "Kept report" });
    const context = await browser.newContext({ javaScriptEnabled: javaScript });
    const page = await context.newPage();
    await signInToDashboard(page, app, login, "/dashboard/tokens");
    await page.getByText("Create a token…").click();
    const form = page.getByRole("form", { name: "New token" });
    await form.getByLabel("Label").fill("nothing at all");
    await form.getByRole("checkbox", { name: /drops:read/ }).uncheck();
    await form.getByRole("checkbox", { name: /drops:write/ }).uncheck();
    await form.getByRole("radio", { name: /Only the drops checked below/ }).check();
    await form.getByRole("checkbox", { name: new RegExp(drop.slug) }).check();
    await form.getByLabel("Expires").selectOption("7");
    await form.getByRole("button", { name: "Create token" }).click();
    await expect(form.locator('[data-state="error"]')).toHaveText("Choose at least one scope.");
    await expect(form.getByLabel("Label")).toHaveValue("nothing at all");
    await expect(form.getByRole("checkbox", { name: /drops:write/ })).not.toBeChecked();
    await expect(form.getByRole("radio", { name: /Only the drops checked below/ })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: new RegExp(drop.slug) })).toBeChecked();
    await expect(form.getByLabel("Expires")).toHaveValue("7");
    await expect(page.getByTestId("new-token")).toHaveCount(0);
    await context.close();
  });
}

for (const screen of SCREENS) {
  test(`tokens with the same label are told apart by when they were made and last used, at ${screen.width} px`, async ({ browser }) => {
    const login = `twins${screen.width}`;
    const used = await app.createToken(login, "laptop");
    await app.createToken(login, "laptop");
    expect((await app.api("/api/me", { token: used })).status).toBe(200);
    const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
    const page = await context.newPage();
    await signInToDashboard(page, app, login, "/dashboard/tokens");
    const rows = page.getByTestId("token-table").locator("tbody tr", { hasText: "laptop" });
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) {
      // "just now" on screen, the exact time on hover.
      await expect(row.getByTestId("token-created").locator("time")).toHaveAttribute("title", /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    }
    const lastUsed = await Promise.all((await rows.all()).map(async (row) => (await row.getByTestId("token-last-used").textContent())!.trim()));
    expect(lastUsed.toSorted()).toEqual(["just now", "never"]);
    await page.screenshot({ path: screenshotPath("tokens", `same-labels-${screen.name}`), fullPage: true });
    await expectNoAxeViolationsInBothSchemes(page);
    await context.close();
  });
}
