// The built-in patterns' templates (issue 18) are what agents copy, so each must be a page htmldrop
// shows well: published as a drop and opened in the viewer on a phone in light and dark and on a desktop,
// it passes axe, never scrolls sideways and fetches nothing from anywhere but the app itself.
// Every file in patterns/*.template.html is covered, so a new pattern is tested without touching this.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type BrowserContext, type Frame, type Page } from "@playwright/test";
import { axeViolationsInFrame, COLOR_SCHEMES, hasHorizontalPageScroll, SCREENS, screenshotPath } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";

const PATTERNS_DIR = join(import.meta.dirname, "..", "..", "patterns");
const TEMPLATES = readdirSync(PATTERNS_DIR)
  .filter((file) => file.endsWith(".template.html"))
  .sort()
  .map((file) => ({ name: file.slice(0, -".template.html".length), html: readFileSync(join(PATTERNS_DIR, file), "utf8") }));

let app: TestApp;
const drops: Record<string, { url: string; raw_url: string }> = {};
// A drop axe must find fault with, proving the checks below run in the viewer's sandboxed frame.
const FLAWED = `<!DOCTYPE html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Flawed</title></head>
<body><main><h1>Flawed</h1><p style="color:#bbb;background:#fff">Faint text</p></main></body></html>`;

test.beforeAll(async () => {
  expect(TEMPLATES.length).toBeGreaterThanOrEqual(5);
  app = await startApp();
  const token = await app.createToken("pattern-templates");
  for (const { name, html } of [...TEMPLATES, { name: "flawed", html: FLAWED }]) {
    const res = await app.api("/api/drops", { method: "POST", token, body: { title: `Pattern template: ${name}`, html } });
    expect(res.status, res.text).toBe(201);
    drops[name] = res.body;
  }
});
test.afterAll(async () => app?.stop());

/** The viewer page of a drop and its iframe's document, loaded and laid out. */
async function openInViewer(page: Page, name: string): Promise<Frame> {
  await page.goto(drops[name]!.url);
  const frame = await (await page.locator("iframe").elementHandle())!.contentFrame();
  await frame!.waitForLoadState("load");
  // The wide-table marker is set after the first layout.
  await frame!.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return frame!;
}

test("axe runs inside the viewer's sandboxed frame", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const frame = await openInViewer(page, "flawed");
  // On a loaded machine a first pass may find the frame's colours not yet settled (axe calls them incomplete).
  await expect.poll(async () => (await axeViolationsInFrame(frame, ["color-contrast"])).flatMap((violation) => violation.nodes), { timeout: 30_000 }).toEqual([expect.stringMatching(/^p: /)]);
  expect(await frame.locator("p").textContent()).toBe("Faint text");
  await context.close();
});

/**
 * Colours do not change with the width, nor the layout with the scheme: each scheme on a phone, where a
 * page is likeliest to overflow, and the desktop once.
 */
const SIGHTINGS = [...COLOR_SCHEMES.map((colorScheme) => ({ screen: SCREENS[0], colorScheme })), { screen: SCREENS[1], colorScheme: COLOR_SCHEMES[0] }];

for (const { screen, colorScheme } of SIGHTINGS) {
  test.describe(`${screen.name}, ${colorScheme}`, () => {
    let context: BrowserContext;
    let page: Page;
    const requested: string[] = [];

    test.beforeAll(async ({ browser }) => {
      const viewport = { width: screen.width, height: screen.height };
      const mobile = screen.name === "phone" ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {};
      context = await browser.newContext({ viewport, colorScheme, ...mobile });
      page = await context.newPage();
      // Requests from the page and every frame in it.
      page.on("request", (request) => requested.push(request.url()));
    });
    test.afterAll(async () => context?.close());

    for (const { name } of TEMPLATES) {
      test(`${name} passes axe, fits the screen and fetches nothing from elsewhere`, async () => {
        requested.length = 0;
        const frame = await openInViewer(page, name);

        // Every rule in dark too, not only the colour ones: the templates' dark scheme is theirs, not the app's.
        expect(await axeViolationsInFrame(frame), `axe violations in ${name}`).toEqual([]);
        // htmldrop makes a table wider than its parent scroll as its own box, which cannot take focus;
        // the templates' tables fit a phone instead.
        expect(await frame.locator("table[data-htmldrop-wide]").count(), "a table too wide for the screen").toBe(0);
        expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1), "sideways scroll in the drop").toBe(true);
        expect(await hasHorizontalPageScroll(page), "sideways scroll on the viewer page").toBe(false);
        const origin = new URL(app.baseUrl).origin;
        const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("about:"));
        expect(elsewhere).toEqual([]);

        await page.screenshot({ path: screenshotPath("pattern-templates", `${name}-${screen.name}-${colorScheme}`) });
      });
    }
  });
}
