// Versions a reader can follow, in real Chromium at a phone's and a desktop's width: the select opens a
// version at once (and the plain form works without JavaScript), an older version says so, a missing
// version's 404 leads to the latest, and the compare page shows both versions and their line diff.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { expectNoAxeViolationsInBothSchemes, hasHorizontalPageScroll, SCREENS, screenshotPath } from "../helpers/a11y";

let app: TestApp;
let token: string;

test.beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("versions-e2e");
});
test.afterAll(async () => app?.stop());

const page_ = (heading: string, extra = "") => `<!doctype html><html lang="en"><head><title>${heading}</title></head><body><h1>${heading}</h1>\n<p>Shared paragraph</p>\n${extra}</body></html>`;

/** A drop with three versions; `passcode` locks it. */
async function threeVersions(title: string, passcode?: string): Promise<{ slug: string; url: string }> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title, html: page_("Version one"), ...(passcode ? { passcode } : {}) } });
  expect(created.status, created.text).toBe(201);
  for (const heading of ["Version two", "Version three"]) {
    const put = await app.api(`/api/drops/${created.body.slug}`, { method: "PUT", token, body: { html: page_(heading, `<p>Added in ${heading}</p>\n`) } });
    expect(put.status, put.text).toBe(200);
  }
  return created.body;
}

async function newPage(browser: Browser, screen: (typeof SCREENS)[number], javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, javaScriptEnabled });
  return context.newPage();
}

for (const screen of SCREENS) {
  test.describe(`at ${screen.width} px`, () => {
    test("the select opens a version at once, and an older one says so with the way back", async ({ browser }) => {
      const drop = await threeVersions(`Following versions ${screen.name}`);
      const page = await newPage(browser, screen);
      await page.goto(drop.url);
      await expect(page.frameLocator("iframe").getByRole("heading", { name: "Version three" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Show" })).toBeHidden();
      await expect(page.getByText(/You are viewing version/)).toHaveCount(0);

      await page.getByRole("combobox", { name: "Version" }).selectOption("2");
      await expect(page).toHaveURL(`${drop.url}?v=2`);
      await expect(page.frameLocator("iframe").getByRole("heading", { name: "Version two" })).toBeVisible();
      await expect(page.getByText("You are viewing version 2 of 3 — see the latest")).toBeVisible();
      expect(await hasHorizontalPageScroll(page)).toBe(false);
      await page.screenshot({ path: screenshotPath("versions", `older-version-${screen.name}`) });
      await expectNoAxeViolationsInBothSchemes(page);

      await page.getByRole("link", { name: "see the latest" }).click();
      await expect(page).toHaveURL(drop.url);
      await expect(page.frameLocator("iframe").getByRole("heading", { name: "Version three" })).toBeVisible();
      await page.context().close();
    });

    test("without JavaScript the form and its Show button still switch versions", async ({ browser }) => {
      const drop = await threeVersions(`No script ${screen.name}`);
      const page = await newPage(browser, screen, false);
      await page.goto(drop.url);
      await page.getByRole("combobox", { name: "Version" }).selectOption("1");
      await expect(page).toHaveURL(drop.url);
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page).toHaveURL(`${drop.url}?v=1`);
      await expect(page.getByText("You are viewing version 1 of 3 — see the latest")).toBeVisible();
      await page.context().close();
    });

    test("a missing version answers 404 with a link to the latest; a missing drop a plain 404", async ({ browser }) => {
      const drop = await threeVersions(`Missing version ${screen.name}`);
      const page = await newPage(browser, screen);
      const missing = await page.goto(`${drop.url}?v=99`);
      expect(missing!.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "This version does not exist" })).toBeVisible();
      await page.screenshot({ path: screenshotPath("versions", `missing-version-${screen.name}`) });
      await expectNoAxeViolationsInBothSchemes(page);
      await page.getByRole("link", { name: "See the latest version" }).click();
      await expect(page).toHaveURL(drop.url);

      expect((await page.goto(`${app.baseUrl}/p/nosuchdrop99?v=2`))!.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Drop not found" })).toBeVisible();
      await expect(page.getByRole("link", { name: "See the latest version" })).toHaveCount(0);
      await page.context().close();
    });

    test("Compare shows both versions rendered and the changed source lines", async ({ browser }) => {
      const drop = await threeVersions(`Compared ${screen.name}`);
      const page = await newPage(browser, screen);
      await page.goto(drop.url);
      await page.getByRole("link", { name: "Compare" }).click();
      await expect(page).toHaveURL(`${drop.url}/compare?from=2&to=3`);
      await expect(page.frameLocator('iframe[title^="Version 2 of"]').getByRole("heading", { name: "Version two" })).toBeVisible();
      await expect(page.frameLocator('iframe[title^="Version 3 of"]').getByRole("heading", { name: "Version three" })).toBeVisible();
      for (const iframe of await page.locator("iframe").all()) await expect(iframe).toHaveAttribute("sandbox", "allow-scripts allow-forms allow-popups allow-modals");

      const table = page.getByRole("table");
      await expect(page.getByText("2 lines added, 2 removed, going from version 2 to version 3.")).toBeVisible();
      await expect(table.getByRole("row").filter({ hasText: "Removed" }).filter({ hasText: "<p>Added in Version two</p>" })).toHaveCount(1);
      await expect(table.getByRole("row").filter({ hasText: "Added" }).filter({ hasText: "<p>Added in Version three</p>" })).toHaveCount(1);
      expect(await hasHorizontalPageScroll(page)).toBe(false);
      await page.screenshot({ path: screenshotPath("versions", `compare-${screen.name}`), fullPage: true });
      await expectNoAxeViolationsInBothSchemes(page);

      // The selects choose other versions (a plain GET form).
      await page.getByRole("combobox", { name: "From" }).selectOption("1");
      await page.getByRole("button", { name: "Compare" }).click();
      await expect(page).toHaveURL(`${drop.url}/compare?from=1&to=3`);
      await expect(page.frameLocator('iframe[title^="Version 1 of"]').getByRole("heading", { name: "Version one" })).toBeVisible();
      expect((await page.goto(`${drop.url}/compare?from=1&to=99`))!.status()).toBe(404);
      await expect(page.getByRole("link", { name: "See the latest version" })).toBeVisible();
      await page.context().close();
    });
  });
}

test("a locked drop's compare page shows the gate and nothing of the drop until unlocked", async ({ browser }) => {
  const drop = await threeVersions("Secret comparison", "open sesame");
  const page = await newPage(browser, SCREENS[1]);
  await page.goto(`${drop.url}/compare?from=1&to=3`);
  await expect(page.getByRole("heading", { name: "This drop is locked" })).toBeVisible();
  await expect(page).not.toHaveTitle(/Secret comparison/);
  expect(await page.content()).not.toContain("Secret comparison");
  await expect(page.locator("iframe")).toHaveCount(0);
  // An unknown version of a locked drop shows the gate too, never a 404 that would tell it apart.
  expect((await page.goto(`${drop.url}?v=99`))!.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This drop is locked" })).toBeVisible();

  await page.goto(drop.url);
  await page.getByLabel("Passcode").fill("open sesame");
  await page.getByRole("button", { name: "Unlock" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Secret comparison" })).toBeVisible();
  await page.goto(`${drop.url}/compare?from=1&to=3`);
  await expect(page.frameLocator('iframe[title^="Version 1 of"]').getByRole("heading", { name: "Version one" })).toBeVisible();
  await expect(page.getByRole("table").getByRole("row").filter({ hasText: "<p>Added in Version three</p>" })).toHaveCount(1);
  await page.context().close();
});

test("an expired drop's compare page answers 410 like its viewer", async ({ request }) => {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Short-lived", html: page_("Soon gone"), ttl_seconds: 1 } });
  expect(created.status, created.text).toBe(201);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect((await request.get(`${created.body.url}/compare?from=1&to=1`)).status()).toBe(410);
  expect((await request.get(created.body.url)).status()).toBe(410);
});
