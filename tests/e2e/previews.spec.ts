// Link previews in real Chromium: the viewer's og:image resolves to a card the browser draws at
// 1200×630 (kept as an artifact), and the owner lets search engines index a drop from the dashboard,
// whose Search engines section passes axe in light and dark, on a phone and a desktop.
import { writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectNoAxeViolationsInBothSchemes, SCREENS, screenshotPath } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";
import { createDrop, pngSize, signInToDashboard, tamperHiddenField } from "../helpers/dashboard";

let app: TestApp;
let token: string;

test.beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("preview-owner");
});

test.afterAll(async () => {
  await app?.stop();
});

test("the viewer's og:image resolves to a 1200×630 card the browser draws", async ({ page }) => {
  const drop = await createDrop(app, token, { title: "Roadmap for the spring release", description: "Milestones, owners and the open risks" });
  await page.goto(drop.url);
  const imageUrl = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(imageUrl).toMatch(new RegExp(`^${app.baseUrl}/p/${drop.slug}/og\\.png\\?v=1&card=`));
  expect(await page.locator('meta[name="twitter:card"]').getAttribute("content")).toBe("summary_large_image");
  expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");

  const image = await page.request.get(imageUrl!);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  const file = screenshotPath("previews", "og-card");
  writeFileSync(file, await image.body());
  expect(pngSize(file)).toEqual({ width: 1200, height: 630 });

  // Decoded by the browser itself, as an unfurler's would.
  await page.goto(imageUrl!);
  const drawn = await page.locator("img").evaluate((element) => {
    const img = element as HTMLImageElement;
    return { complete: img.complete, width: img.naturalWidth, height: img.naturalHeight };
  });
  expect(drawn).toEqual({ complete: true, width: 1200, height: 630 });
});

for (const screen of SCREENS) {
  test(`at ${screen.width} px the owner lets search engines index a drop, and takes it back`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
    const page = await context.newPage();
    const login = `indexing-${screen.name}`;
    const ownToken = await app.createToken(login);
    const drop = await createDrop(app, ownToken, { title: `Indexing at ${screen.width}` });
    await signInToDashboard(page, app, login, `/dashboard/drops/${drop.slug}?tab=settings`);

    const section = page.locator("section", { has: page.getByRole("heading", { name: "Search engines" }) });
    const checkbox = section.getByRole("checkbox", { name: "Let search engines index this drop" });
    await expect(checkbox).not.toBeChecked();
    // The rest of the page is other tests' concern.
    await expectNoAxeViolationsInBothSchemes(page, { include: "section:has(#indexing-heading)" });

    await checkbox.check();
    await section.getByRole("button", { name: "Save indexing setting" }).click();
    await expect(section.getByRole("status")).toHaveText("Saved: search engines may now index this drop.");
    expect((await app.api(`/api/drops/${drop.slug}`, { token: ownToken })).body.indexable).toBe(true);
    expect((await fetch(drop.url)).headers.get("x-robots-tag")).toBeNull();
    await expectNoAxeViolationsInBothSchemes(page, { include: "section:has(#indexing-heading)" });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("previews", `indexing-${screen.name}`), fullPage: false });

    // A form pointed at another account's drop is refused and changes nothing there.
    const other = await createDrop(app, token, { title: `Someone else's at ${screen.width}` });
    await tamperHiddenField(page, "Search engine indexing", "slug", other.slug);
    await section.getByRole("button", { name: "Save indexing setting" }).click();
    await expect(section.getByRole("status")).toHaveAttribute("data-state", "error");
    expect((await app.api(`/api/drops/${other.slug}`, { token })).body).not.toHaveProperty("indexable");

    await page.reload();
    await expect(checkbox).toBeChecked();
    await checkbox.uncheck();
    await section.getByRole("button", { name: "Save indexing setting" }).click();
    await expect(section.getByRole("status")).toHaveText("Saved: search engines are asked not to index this drop.");
    expect((await app.api(`/api/drops/${drop.slug}`, { token: ownToken })).body).not.toHaveProperty("indexable");
    expect((await fetch(drop.url)).headers.get("x-robots-tag")).toBe("noindex");
    await context.close();
  });
}
