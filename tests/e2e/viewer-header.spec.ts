// The viewer's header (issue 17): one row on a phone, with the description and context behind a small
// button, everything shown on a desktop, inside a `main` landmark, and no axe violations in light and dark.
import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolationsInBothSchemes, hasHorizontalPageScroll, SCREENS, screenshotPath } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let token: string;
let publicDrop: { url: string; slug: string };
let lockedDrop: { url: string; slug: string };

test.beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("viewer-header");
  const create = async (body: Record<string, unknown>) => {
    const res = await app.api("/api/drops", { method: "POST", token, body: { html: "<h1>Version one</h1>", ...body } });
    expect(res.status).toBe(201);
    return res.body;
  };
  const long = { title: "Quarterly revenue report for the northern region, with forecasts", description: "Numbers for Q3, and what they mean for Q4", context: "Why the numbers look this way" };
  publicDrop = await create(long);
  lockedDrop = await create({ ...long, passcode: "sesame" });
  for (const drop of [publicDrop, lockedDrop]) {
    const put = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<h1>Version two</h1>", context: "Second thoughts" } });
    expect(put.status).toBe(200);
  }
});
test.afterAll(async () => app?.stop());

async function unlock(page: Page): Promise<void> {
  await page.goto(lockedDrop.url);
  await page.getByLabel("Passcode").fill("sesame");
  await page.getByRole("button", { name: "Unlock" }).click();
  await expect(page.getByRole("button", { name: "Lock again" })).toBeVisible();
}

/** The tops of the header's title and controls: one row when they all start within a few pixels. */
async function headerRows(page: Page): Promise<{ height: number; tops: number[] }> {
  const header = page.locator("main header").first();
  const controls = header.locator("h1, summary, select, button, a");
  const tops: number[] = [];
  for (const box of await Promise.all((await controls.all()).map((control) => control.boundingBox()))) {
    if (box && box.height > 0) tops.push(box.y + box.height / 2);
  }
  return { height: (await header.boundingBox())!.height, tops };
}

for (const screen of SCREENS) {
  for (const kind of ["public", "unlocked"] as const) {
    test(`${screen.name}, ${kind} drop: the header fits and passes axe`, async ({ page }) => {
      await page.setViewportSize({ width: screen.width, height: screen.height });
      if (kind === "unlocked") await unlock(page);
      else await page.goto(publicDrop.url);
      await expect(page.getByRole("main")).toHaveCount(1);
      await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(/Quarterly revenue report/);
      await expect(page.frameLocator("iframe").getByRole("heading", { name: "Version two" })).toBeVisible();
      const link = page.getByRole("link", { name: "Open full page" });
      await expect(link).toBeVisible();
      if (kind === "unlocked") await expect(link).toHaveAttribute("href", /^\/p\/[^/]+\/full\?v=2$/);
      expect(await hasHorizontalPageScroll(page)).toBe(false);

      // The viewer is the whole page, not the narrow column other pages' `main` is.
      expect((await page.getByRole("main").boundingBox())!.width).toBe(screen.width);
      const { height, tops } = await headerRows(page);
      if (screen.name === "phone") {
        // One row: every control's middle within a few pixels of the title's, and the bar a small share of the screen.
        for (const top of tops) expect(Math.abs(top - tops[0]!)).toBeLessThanOrEqual(6);
        expect(height / screen.height).toBeLessThan(0.08);
        await expect(page.getByText("Numbers for Q3")).toBeHidden();
        await page.screenshot({ path: screenshotPath("viewer-header", `${kind}-${screen.name}`) });
        await page.locator("summary").filter({ hasText: "About this drop" }).click();
        await expect(page.getByText("Numbers for Q3")).toBeVisible();
        await page.getByText("Context for version 2").click();
        await expect(page.getByText("Second thoughts", { exact: true })).toBeVisible();
        await page.screenshot({ path: screenshotPath("viewer-header", `${kind}-${screen.name}-about`) });
      } else {
        await expect(page.getByText("Numbers for Q3")).toBeVisible();
        await expect(page.getByText("Context for version 2")).toBeVisible();
        await page.screenshot({ path: screenshotPath("viewer-header", `${kind}-${screen.name}`) });
      }
      await expectNoAxeViolationsInBothSchemes(page);
    });
  }
}
