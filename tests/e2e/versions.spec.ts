// Versions a reader can follow, in real Chromium at a phone's and a desktop's width: the select opens a
// version at once (and the plain form works without JavaScript), an older version says so, a missing
// version's 404 leads to the latest, and the compare page marks what changed in the source and in both
// rendered versions, one at a time on a phone.
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

/** A report long enough that a frame scrolls to its changed figure, in a line of 300 characters. */
const report = (figure: string, region: string) =>
  `<!doctype html><html lang="en"><head><title>Report</title></head><body><h1>Report</h1>\n<p>Regions: ${region}</p>\n` +
  Array.from({ length: 30 }, (_, index) => `<p>Paragraph ${index} of the report, unchanged from one version to the next.</p>\n`).join("") +
  `<p>Revenue came to ${figure} thousand this quarter, ${"after the sale of the old warehouse and before the new contracts. ".repeat(4)}</p>\n`.slice(0, 300) +
  "\n<p>The end.</p>\n</body></html>";

/** A drop with these versions, in order. */
async function versionsOf(title: string, versions: string[]): Promise<{ slug: string; url: string }> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title, html: versions[0] } });
  expect(created.status, created.text).toBe(201);
  for (const html of versions.slice(1)) {
    const put = await app.api(`/api/drops/${created.body.slug}`, { method: "PUT", token, body: { html } });
    expect(put.status, put.text).toBe(200);
  }
  return created.body;
}

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

    test("Compare marks the changed word in the source and in both frames, and scrolls the frames to it", async ({ browser }) => {
      const drop = await versionsOf(`Compared ${screen.name}`, [report("900", "north"), report("1200", "south"), report("1300", "south")]);
      const page = await newPage(browser, screen);
      await page.goto(drop.url);
      await page.getByRole("link", { name: "Compare" }).click();
      await expect(page).toHaveURL(`${drop.url}/compare?from=2&to=3`);
      for (const iframe of await page.locator("iframe").all()) await expect(iframe).toHaveAttribute("sandbox", "allow-scripts allow-forms allow-popups allow-modals");

      // The source: one changed word in a 300-character line, not the whole line.
      await expect(page.getByText("1 line added, 1 removed, going from version 2 to version 3.")).toBeVisible();
      await expect(page.getByRole("table").locator("del")).toHaveText(["1200"]);
      await expect(page.getByRole("table").locator("ins")).toHaveText(["1300"]);

      // The rendered view: the changed paragraph outlined, far down, scrolled into each frame's view.
      await expect(page.getByText("The text changed in 1 place.")).toBeVisible();
      await expect(page.getByText("Change 1 of 1")).toBeVisible();
      const older = page.locator('iframe[title^="Version 2 of"]');
      const newer = page.locator('iframe[title^="Version 3 of"]');
      const mark = (frame: typeof older) => frame.contentFrame().locator("[data-htmldrop-mark]");
      await expect(mark(newer)).toHaveText(/came to 1300 thousand/);
      await expect(mark(newer)).toHaveAttribute("data-htmldrop-mark", "added current");
      await expect(mark(newer)).toBeInViewport();
      if (screen.name === "desktop") {
        await expect(older).toBeVisible();
        await expect(mark(older)).toHaveText(/came to 1200 thousand/);
        await expect(mark(older)).toHaveAttribute("data-htmldrop-mark", "removed current");
        await expect(mark(older)).toBeInViewport();
        await expect(page.locator('input[type="radio"]')).toHaveCount(2);
        for (const radio of await page.locator('input[type="radio"]').all()) await expect(radio).toBeHidden();
      } else {
        // One frame at a time, the newer first; the toggle shows the older, scrolled to the same change.
        await expect(older).toBeHidden();
        await page.getByRole("radio", { name: "Version 2" }).check();
        await expect(newer).toBeHidden();
        await expect(mark(older)).toHaveAttribute("data-htmldrop-mark", "removed current");
        await expect(mark(older)).toBeInViewport();
        expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2_500);

        // Without JavaScript: nothing is outlined, but the toggle (CSS alone) and the marked source still work.
        const plain = await newPage(browser, screen, false);
        await plain.goto(`${drop.url}/compare?from=2&to=3`);
        await expect(plain.getByRole("table").locator("ins")).toHaveText(["1300"]);
        await expect(plain.getByRole("button", { name: "Next change" })).toHaveCount(0);
        await expect(plain.locator('iframe[title^="Version 2 of"]')).toBeHidden();
        await plain.getByRole("radio", { name: "Version 2" }).check();
        await expect(plain.locator('iframe[title^="Version 2 of"]')).toBeVisible();
        await expect(plain.locator('iframe[title^="Version 3 of"]')).toBeHidden();
        await plain.context().close();
      }
      // WCAG 2.2's minimum target size, 24×24 CSS px, for every control the page adds.
      for (const control of await page.locator("main button, main label:has(input)").all()) {
        if (!(await control.isVisible())) continue;
        const box = (await control.boundingBox())!;
        expect(Math.min(box.width, box.height), await control.innerText()).toBeGreaterThanOrEqual(24);
      }
      expect(await hasHorizontalPageScroll(page)).toBe(false);
      // Not the full page: that resizes the frames (their height follows the screen's), scrolling them back.
      await page.screenshot({ path: screenshotPath("versions", `compare-${screen.name}`) });

      // The selects choose other versions (a plain GET form); Next change moves both frames.
      await page.getByRole("combobox", { name: "From" }).selectOption("1");
      await page.getByRole("button", { name: "Compare" }).click();
      await expect(page).toHaveURL(`${drop.url}/compare?from=1&to=3`);
      await expect(page.getByText("Change 1 of 2")).toBeVisible();
      const current = newer.contentFrame().locator("[data-htmldrop-mark~=current]");
      await expect(current).toHaveText("Regions: south");
      await page.getByRole("button", { name: "Next change" }).click();
      await expect(page.getByText("Change 2 of 2")).toBeVisible();
      await expect(current).toHaveText(/came to 1300 thousand/);
      await expect(current).toBeInViewport();
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
