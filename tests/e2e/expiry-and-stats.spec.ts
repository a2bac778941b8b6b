// Issue 15 in real Chromium: the owner sets an expiry in the dashboard on a phone, watches it count down
// and pass, changes and removes it (each checked through the API), then reads the views chart and its
// tables on a desktop after signed-out visitors opened the drop. Each flow runs at one size: how each
// page lays out at both sizes is accessibility-pages.ts's to check.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { createDrop, signInToDashboard } from "../helpers/dashboard";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => {
  await app?.stop();
});

const DAY_MS = 86_400_000;
// In a time zone hours and half an hour from UTC, so a time read in the wrong zone shows.
const PHONE = { width: 390, height: 844, timezoneId: "Australia/Adelaide" };
const DESKTOP = { width: 1280, height: 800 };
const screensDir = join(process.cwd(), "test-results", "dashboard-screens");

/** The dashboard's UTC format (lib/dashboard/format.ts). */
function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A datetime-local value `aheadMs` from now on the page's clock and in its time zone, and the instant it names. */
function localDateTime(page: Page, aheadMs: number): Promise<{ value: string; instant: number }> {
  return page.evaluate((ahead) => {
    const at = new Date(Date.now() + ahead);
    at.setMilliseconds(0);
    const two = (part: number) => String(part).padStart(2, "0");
    const value = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
    return { value, instant: at.getTime() };
  }, aheadMs);
}

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
}

async function listedExpiry(page: Page, slug: string): Promise<string> {
  await page.goto(`${app.baseUrl}/dashboard`);
  return ((await page.locator(`tr[data-slug="${slug}"]`).getByTestId("drop-expiry").textContent()) ?? "").trim();
}

test(`at ${PHONE.width} px an owner sets an expiry, watches it pass, changes it and removes it`, async ({ browser }) => {
  const screen = PHONE;
  // The countdown runs in real time: 15 seconds to the expiry.
  test.setTimeout(120_000);
  const login = `expiry-${screen.width}`;
  const token = await app.createToken(login);
  const drop = await createDrop(app, token, { title: `Launch plan at ${screen.width}` });
  const dropPage = `${app.baseUrl}/dashboard/drops/${drop.slug}?tab=share`;
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, timezoneId: screen.timezoneId });
  const page = await context.newPage();
  try {
    await signInToDashboard(page, app, login, `/dashboard/drops/${drop.slug}?tab=share`);
    const section = page.getByRole("region", { name: "Expiry" });
    const state = page.getByTestId("expiry-state");
    const result = page.locator("#expiry-result");
    const customField = section.getByLabel("Date and time", { exact: true });
    await expect(state).toHaveText("No expiry: the link works until you delete the drop.");
    // Once the page's script runs, the field is read in the browser's own zone.
    await expect(section.getByText(`In your time zone (${screen.timezoneId}).`)).toBeVisible();
    expect(await listedExpiry(page, drop.slug)).toBe("never");
    await page.goto(dropPage);

    // A time that has passed is refused in plain words, which the field points at.
    await customField.fill((await localDateTime(page, -3_600_000)).value);
    await expect(section.getByRole("radio", { name: "At a date and time" })).toBeChecked();
    await section.getByRole("button", { name: "Set expiry" }).click();
    await expect(result).toHaveAttribute("data-state", "error");
    await expect(result).toHaveText("That time has already passed. Pick a time in the future; to stop sharing now, delete the drop or set a passcode.");
    await expect(customField).toHaveAccessibleDescription(/In your time zone .* That time has already passed/);
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.expires_at).toBeUndefined();

    // 15 seconds ahead, typed in the browser's zone: the API holds that very instant.
    const soon = await localDateTime(page, 15_000);
    await customField.fill(soon.value);
    await section.getByRole("button", { name: "Set expiry" }).click();
    await expect(result).toHaveText("Expiry saved.");
    const set = await app.api(`/api/drops/${drop.slug}`, { token });
    expect(set.body).toMatchObject({ expires_at: soon.instant, expired: false });

    // It counts down by the second, then passes while the page is open.
    const countdown = page.getByTestId("expiry-countdown");
    await expect(countdown).toHaveText(/^Expires in \d+ seconds?$/);
    await expect(countdown).toHaveAttribute("datetime", new Date(soon.instant).toISOString());
    await expect(countdown).toHaveAttribute("title", utcText(soon.instant));
    const counted = (await countdown.textContent()) ?? "";
    await expect(countdown).not.toHaveText(counted);
    await expectNoSidewaysScroll(page, `the drop page at ${screen.width}px`);
    mkdirSync(screensDir, { recursive: true });
    await page.getByRole("region", { name: "Expiry" }).screenshot({ path: join(screensDir, `expiry-${screen.width}.png`) });
    await expect(countdown).toHaveText(/^Expired (just now|\d+ seconds? ago)$/, { timeout: 25_000 });
    await expect(page.getByTestId("expiry-consequence")).toHaveText(
      `The link answers “410 Gone”; the drop will be deleted after ${utcText(soon.instant + 7 * DAY_MS)} unless you set a new expiry.`,
    );
    expect((await app.api(`/p/${drop.slug}`)).status).toBe(410);
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.expired).toBe(true);
    expect(await listedExpiry(page, drop.slug)).toBe("Expired");

    // Change it to a preset: the server's clock places it, and the link works again.
    await page.goto(dropPage);
    await expect(page.getByText("Expired: the links answer “410 Gone”.")).toBeVisible();
    await section.getByRole("radio", { name: "In 7 days" }).check();
    const before = Date.now();
    await section.getByRole("button", { name: "Change expiry" }).click();
    await expect(result).toHaveText("Expiry saved.");
    const after = Date.now();
    await expect(countdown).toHaveText("Expires in 7 days");
    const changed = (await app.api(`/api/drops/${drop.slug}`, { token })).body;
    expect(changed.expired).toBe(false);
    expect(changed.expires_at).toBeGreaterThanOrEqual(before + 7 * DAY_MS);
    expect(changed.expires_at).toBeLessThanOrEqual(after + 7 * DAY_MS);
    expect((await app.api(`/p/${drop.slug}`)).status).toBe(200);
    expect(await listedExpiry(page, drop.slug)).toBe("in 7 days");
    await expectNoSidewaysScroll(page, `the drop list at ${screen.width}px`);

    // Remove it: the API shows no expiry at all.
    await page.goto(dropPage);
    await section.getByRole("button", { name: "Remove expiry" }).click();
    await expect(state).toHaveText("No expiry: the link works until you delete the drop.");
    const cleared = (await app.api(`/api/drops/${drop.slug}`, { token })).body;
    expect(cleared).not.toHaveProperty("expires_at");
    expect(cleared).not.toHaveProperty("expired");
    await expect(section.getByRole("button", { name: "Remove expiry" })).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test(`at ${DESKTOP.width} px an owner reads the views chart, its table and the views per version`, async ({ browser }) => {
  const screen = DESKTOP;
  const login = `views-${screen.width}`;
  const token = await app.createToken(login);
  const drop = await createDrop(app, token, { title: `Popular report at ${screen.width}` });
  expect((await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<p>v2</p>" } })).status).toBe(200);
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
  const page = await context.newPage();
  try {
    // The owner's own look while signed in is not counted...
    await signInToDashboard(page, app, login, `/dashboard/drops/${drop.slug}`);
    const ownBeacon = page.waitForResponse((response) => response.url().includes(`/p/${drop.slug}/view?v=2`));
    await page.goto(drop.url);
    expect((await ownBeacon).status()).toBe(204);
    // ...a signed-out visitor's is (the viewer's own beacon, for v2, the latest)...
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    const beacon = visitorPage.waitForResponse((response) => response.url().includes(`/p/${drop.slug}/view?v=2`));
    await visitorPage.goto(drop.url);
    expect((await beacon).status()).toBe(204);
    await visitor.close();
    // ...and so are two views of v1, reported as a page of the site would, from two clients (one
    // client counts once per version in 30 minutes): this machine over IPv4 and over IPv6.
    for (const host of ["127.0.0.1", "[::1]"]) {
      const response = await fetch(`http://${host}:${app.env.PORT}/p/${drop.slug}/view?v=1`, { method: "POST", headers: { "sec-fetch-site": "same-origin" } });
      expect(response.status).toBe(204);
    }
    // Views reach the counters in batches just after they are reported.
    const stats = async () => (await app.api(`/api/drops/${drop.slug}/stats`, { token })).body;
    await expect.poll(async () => (await stats()).total_views).toBe(3);
    const today: string = (await stats()).to;

    await page.goto(`${app.baseUrl}/dashboard/drops/${drop.slug}?tab=views`);
    const views = page.getByRole("region", { name: "Views" });
    await expect(views.getByTestId("views-summary")).toContainText("3 in the last 30 days");
    await expect(views.getByTestId("views-summary")).toContainText("· 3 in all.");
    const chart = views.getByRole("img", { name: `Views per day, last 30 days: 3 in total, most on ${today} (3)` });
    await expect(chart).toBeVisible();
    await expect(chart.getByTestId("chart-day")).toHaveCount(30);
    await expect(chart.getByTestId("chart-bar")).toHaveCount(1);
    const todayColumn = chart.locator(`[data-testid="chart-day"][data-date="${today}"]`);
    await expect(todayColumn).toHaveAttribute("data-views", "3");
    await expect(todayColumn.locator("title")).toHaveText(`${today}: 3 views`);
    await expect(chart.locator("text")).toContainText([today]);

    // The same numbers as a table, behind a disclosure.
    const table = views.getByTestId("views-table");
    await expect(table).toBeHidden();
    await views.getByText("Show views per day as a table").click();
    await expect(table).toBeVisible();
    await expect(table.locator("tbody tr")).toHaveCount(30);
    // Newest first: today, then 29 days without views.
    await expect(table.locator("tbody tr").first()).toHaveAttribute("data-date", today);
    await expect(table.locator(`tr[data-date="${today}"] th`)).toHaveText(today);
    await expect(table.locator(`tr[data-date="${today}"] td`)).toHaveText("3");
    await expect(table.locator(`tbody tr:not([data-date="${today}"]) td`)).toHaveText(Array(29).fill("0"));

    const perVersion = views.getByTestId("version-views-table");
    await expect(perVersion.locator("tbody tr")).toHaveCount(2);
    await expect(perVersion.locator("tbody th")).toHaveText(["v1", "v2"]);
    await expect(perVersion.locator("tbody td")).toHaveText(["2", "1"]);

    await expectNoSidewaysScroll(page, `the views at ${screen.width}px`);
    mkdirSync(screensDir, { recursive: true });
    await views.screenshot({ path: join(screensDir, `views-${screen.width}.png`) });
  } finally {
    await context.close();
  }
});

test("without JavaScript, a custom expiry is read as UTC, as the form says", async ({ browser }) => {
  const token = await app.createToken("expiry-nojs");
  const drop = await createDrop(app, token, { title: "No script here" });
  const context = await browser.newContext({ javaScriptEnabled: false, timezoneId: "Australia/Adelaide" });
  const page = await context.newPage();
  try {
    await signInToDashboard(page, app, "expiry-nojs", `/dashboard/drops/${drop.slug}?tab=share`);
    const section = page.getByRole("region", { name: "Expiry" });
    await expect(section.getByText("Read as UTC.")).toBeVisible();
    const target = new Date(Date.now() + 2 * DAY_MS);
    target.setUTCSeconds(0, 0);
    await section.getByRole("radio", { name: "At a date and time" }).check();
    await section.getByLabel("Date and time", { exact: true }).fill(target.toISOString().slice(0, 16));
    await section.getByRole("button", { name: "Set expiry" }).click();
    await expect(page.locator("#expiry-result")).toHaveText("Expiry saved.");
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.expires_at).toBe(target.getTime());
    await expect(page.getByTestId("expiry-countdown")).toHaveText("Expires in 2 days");
  } finally {
    await context.close();
  }
});
