// Publishing from the owner dashboard in real Chromium against the real server: a new drop from a chosen
// file, pasted HTML or a file dropped on the page; the refusals in plain words next to their fields; a
// new version with its context; the list's polish. Every result is checked back through the REST API.
import { expect, test, type Browser } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { expectNoAxeViolationsInBothSchemes, hasHorizontalPageScroll, SCREENS, screenshotPath } from "../helpers/a11y";
import { createDrop, openSignedIn } from "../helpers/dashboard";

const HTML_MAX_BYTES = 2_097_152;

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => {
  await app?.stop();
});

const openAs = (browser: Browser, login: string, path: string, screen: { width: number; height: number }, javaScript = true) =>
  openSignedIn(browser, app, login, path, screen, javaScript);

/** The account's drops through the API, as an agent holding a token of that account sees them. */
async function dropsOf(token: string) {
  return (await app.api("/api/drops?sortBy=created_at&sortOrder=asc", { token })).body.data as { slug: string; title: string; latest_version: number; locked: boolean; metadata: Record<string, string> }[];
}

/** An HTML document of exactly `bytes` bytes. */
function documentOf(bytes: number): string {
  const head = "<!doctype html><title>big</title><p>";
  return head + "x".repeat(bytes - head.length);
}

test(`a new drop from pasted HTML, with each refusal next to its field, at ${SCREENS[0].width} px`, async ({ browser }) => {
  const screen = SCREENS[0];
  const login = `paste${screen.width}`;
  const token = await app.createToken(login, "check");
  const page = await openAs(browser, login, "/dashboard/new", screen);
  await expect(page).toHaveTitle("New drop · htmldrop dashboard");
  const form = page.getByRole("form", { name: "New drop" });

  // A blank title, bad tags and a short passcode: each refusal sits under its own field, in plain words.
  await form.getByLabel("Title").fill("   ");
  await form.getByLabel("Or paste HTML").fill("<!doctype html><h1>Pasted page</h1>");
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(form.getByRole("status")).toHaveText("The drop was not published: see the field marked below.");
  await expect(form.getByTestId("title-error")).toHaveText("Give the drop a title.");
  await expect(form.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Title").fill("Pasted page");
  await form.getByLabel("Tags (optional)").fill("justtext");
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(form.getByTestId("tags-error")).toHaveText('Tag line 1 ("justtext") must look like key=value.');
  await form.getByLabel("Tags (optional)").fill("Not A Key!=x");
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(form.getByTestId("tags-error")).toContainText("tag keys use letters, digits");
  await expect(form.getByTestId("title-error")).toHaveCount(0);

  await form.getByLabel("Tags (optional)").fill("project=alpha\nteam=web");
  await form.getByLabel("Passcode (optional)").fill("ab");
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(form.getByTestId("passcode-error")).toHaveText("A passcode needs at least 4 characters.");
  // What was typed stays; nothing was created by the refusals.
  await expect(form.getByLabel("Or paste HTML")).toHaveValue("<!doctype html><h1>Pasted page</h1>");
  expect(await dropsOf(token)).toEqual([]);
  await page.screenshot({ path: screenshotPath("dashboard-publish", `field-errors-${screen.name}`), fullPage: true });
  await expectNoAxeViolationsInBothSchemes(page);

  await form.getByLabel("Passcode (optional)").fill("open sesame");
  await form.getByLabel("Context (optional)").fill("First draft, pasted by hand.");
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(page).toHaveURL(/\/dashboard\/drops\/[^/?]+\?notice=dropCreated$/);
  await expect(page.getByTestId("notice")).toHaveText("Drop published as version 1. Share its link below.");
  await expect(page).toHaveTitle("Pasted page · htmldrop dashboard");
  const [created] = await dropsOf(token);
  expect(created).toMatchObject({ title: "Pasted page", latest_version: 1, locked: true, metadata: { project: "alpha", team: "web" } });
  const version = await app.api(`/api/drops/${created!.slug}/v/1`, { token });
  expect(version.body.context).toBe("First draft, pasted by hand.");
  expect(await hasHorizontalPageScroll(page)).toBe(false);
});

test("a new drop from a chosen file: a near-limit document is taken, a non-HTML file and an empty file are refused", async ({ browser }) => {
  const login = "chooser";
  const token = await app.createToken(login, "check");
  const page = await openAs(browser, login, "/dashboard/new", SCREENS[1]);
  const form = page.getByRole("form", { name: "New drop" });
  await form.getByLabel("Title").fill("Chosen file");

  await form.getByLabel("HTML file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plain text") });
  await expect(form.getByTestId("html-error")).toHaveText("“notes.txt” is not an HTML file. Choose a file ending in .html or .htm.");
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(form.getByTestId("html-error")).toBeVisible();

  await form.getByLabel("HTML file").setInputFiles({ name: "empty.html", mimeType: "text/html", buffer: Buffer.alloc(0) });
  await expect(form.getByTestId("html-error")).toHaveText("“empty.html” is empty. Choose a file with an HTML document in it.");

  await form.getByLabel("HTML file").setInputFiles({ name: "huge.html", mimeType: "text/html", buffer: Buffer.from(documentOf(HTML_MAX_BYTES + 1)) });
  await expect(form.getByTestId("html-error")).toContainText("a drop takes at most 2 MB");

  // Both a file and pasted text: which one was meant is unclear, so neither is taken.
  await form.getByLabel("HTML file").setInputFiles({ name: "report.html", mimeType: "text/html", buffer: Buffer.from("<!doctype html><h1>Report</h1>") });
  await form.getByLabel("Or paste HTML").fill("<p>also this</p>");
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(form.getByTestId("html-error")).toHaveText("Choose a file or paste HTML, not both: clear one of them.");
  await form.getByLabel("Or paste HTML").fill("");

  // A document 100 bytes under the spec's limit fits under the server action's body limit too.
  const nearLimit = documentOf(HTML_MAX_BYTES - 100);
  await form.getByLabel("HTML file").setInputFiles({ name: "big.html", mimeType: "text/html", buffer: Buffer.from(nearLimit) });
  await expect(form.getByTestId("html-error")).toHaveCount(0);
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(page).toHaveURL(/\/dashboard\/drops\/[^/?]+\?notice=dropCreated$/, { timeout: 30_000 });
  const [created] = await dropsOf(token);
  expect((await app.api(`/api/drops/${created!.slug}/v/1`, { token })).body.size_bytes).toBe(nearLimit.length);
});

test("without JavaScript, a chosen file publishes and a document over the limit is refused in plain words", async ({ browser }) => {
  const login = "nojs";
  const token = await app.createToken(login, "check");
  const page = await openAs(browser, login, "/dashboard/new", SCREENS[0], false);
  const form = page.getByRole("form", { name: "New drop" });
  await expect(form.getByText("Choose an .html file, or paste the HTML below.")).toBeVisible();

  await form.getByLabel("Title").fill("Too big");
  await form.getByLabel("Description (optional)").fill("kept after the refusal");
  await form.getByLabel("HTML file").setInputFiles({ name: "huge.html", mimeType: "text/html", buffer: Buffer.from(documentOf(HTML_MAX_BYTES + 1)) });
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(page.getByTestId("html-error")).toHaveText(/^The HTML is 2\.00 MB; a drop takes at most 2\.00 MB\. Make it smaller/);
  await expect(page.getByLabel("Description (optional)")).toHaveValue("kept after the refusal");
  expect(await dropsOf(token)).toEqual([]);

  await page.getByLabel("Title").fill("No script");
  await page.getByLabel("HTML file").setInputFiles({ name: "page.html", mimeType: "text/html", buffer: Buffer.from("<!doctype html><h1>No script</h1>") });
  await page.getByRole("button", { name: "Publish drop" }).click();
  await expect(page.getByTestId("notice")).toHaveText("Drop published as version 1. Share its link below.");
  expect((await dropsOf(token)).map((drop) => drop.title)).toEqual(["No script"]);
});

test("a new drop from a file dropped on the page", async ({ browser }) => {
  const login = "dropper";
  const token = await app.createToken(login, "check");
  const page = await openAs(browser, login, "/dashboard/new", SCREENS[0]);
  const form = page.getByRole("form", { name: "New drop" });
  await expect(form.getByText(/Drop an \.html file anywhere on this page/)).toBeVisible();
  await form.getByLabel("Title").fill("Dropped file");

  // What a drag from the file manager delivers: a drop event whose DataTransfer carries the file.
  await page.getByRole("heading", { level: 1 }).evaluate((target) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["<!doctype html><h1>Dropped</h1>"], "dropped.html", { type: "text/html" }));
    target.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  await expect(form.getByTestId("dropped-file")).toHaveText("Dropped: dropped.html");
  await form.getByRole("button", { name: "Publish drop" }).click();
  await expect(page).toHaveURL(/\?notice=dropCreated$/);
  const [created] = await dropsOf(token);
  expect(created!.title).toBe("Dropped file");
  expect(await (await fetch(`${app.baseUrl}/p/${created!.slug}/raw`)).text()).toContain("<h1>Dropped</h1>");
});

test(`a new version with its context, listed at once, readable and previewed, at ${SCREENS[1].width} px`, async ({ browser }) => {
  const screen = SCREENS[1];
  const login = `versions${screen.width}`;
  const token = await app.createToken(login, "agent");
  const drop = await createDrop(app, token, { title: `Weekly report ${screen.width}`, context: "made by the agent" });
  const page = await openAs(browser, login, `/dashboard/drops/${drop.slug}`, screen);
  await expect(page).toHaveTitle(`Weekly report ${screen.width} · htmldrop dashboard`);
  const versions = page.getByTestId("version-table");
  await expect(versions.locator("tbody tr")).toHaveCount(1);

  // The first screen: the preview, the link and the actions, with the upload folded away.
  await expect(page.frameLocator('iframe[title="Preview of v1"]').locator("body")).toBeVisible();
  await page.getByText("Or upload a whole new document").click();
  const form = page.getByRole("form", { name: "New version" });
  await form.getByRole("button", { name: "Publish new version" }).click();
  await expect(form.getByTestId("html-error")).toHaveText("Choose an .html file, drop one on the page, or paste HTML.");
  await form.getByLabel("Or paste HTML").fill("<!doctype html><h1>Second</h1>");
  await form.getByLabel("Context (optional)").fill("Fixed the totals in the second table.");
  await form.getByRole("button", { name: "Publish new version" }).click();
  await expect(form.getByRole("status")).toHaveText("Version 2 published with its context. It is now the latest.");
  await expect(form.getByTestId("html-error")).toHaveCount(0);
  await expect(form.getByLabel("Or paste HTML")).toHaveValue("");

  // The list shows it at once, newest first, with each version's context behind a disclosure.
  await expect(versions.locator("tbody tr")).toHaveCount(2);
  const second = versions.locator('tr[data-version="2"]');
  await expect(second).toContainText("latest");
  await second.getByText("Read the context of v2").click();
  await expect(second.getByText("Fixed the totals in the second table.")).toBeVisible();
  await versions.locator('tr[data-version="1"]').getByText("Read the context of v1").click();
  await expect(versions.locator('tr[data-version="1"]').getByText("made by the agent")).toBeVisible();
  await expect(second.locator("time")).toHaveAttribute("title", / UTC$/);
  await expect(second.locator("time")).toHaveText(/just now|minute/);
  await page.screenshot({ path: screenshotPath("dashboard-publish", `new-version-${screen.name}`), fullPage: true });
  await expectNoAxeViolationsInBothSchemes(page);

  expect(await hasHorizontalPageScroll(page)).toBe(false);

  // Each version opens in the viewer, pinned to it.
  const preview = versions.locator('tr[data-version="1"]').getByRole("link", { name: "Open v1" });
  await expect(preview).toHaveAttribute("href", `/p/${drop.slug}?v=1`);
  const viewer = await page.context().newPage();
  await viewer.goto(`${app.baseUrl}/p/${drop.slug}?v=1`);
  await expect(viewer.locator("iframe")).toHaveAttribute("src", /\/raw\?v=1/);

  const api = await app.api(`/api/drops/${drop.slug}/v/2`, { token });
  expect(api.body).toMatchObject({ version: 2, is_latest: true, context: "Fixed the totals in the second table." });
  await page.context().close();
});

test("the drop list: last page for an out-of-range page, relative times, copy link, full width, skip link", async ({ browser }) => {
  const login = "lister";
  const token = await app.createToken(login, "agent");
  const drops = [];
  for (const title of ["Listed one", "Listed two", "Listed three"]) drops.push(await createDrop(app, token, { title }));

  const desktop = await openAs(browser, login, "/dashboard", SCREENS[1]);
  // Page 9 of a one-page list: the last page, not an empty list that blames the filters.
  await desktop.goto(`${app.baseUrl}/dashboard?sortBy=created_at&page=9`);
  await expect(desktop).toHaveURL(`${app.baseUrl}/dashboard?sortBy=created_at`);
  await expect(desktop.getByTestId("page-info")).toHaveText("Page 1 of 1 · 3 drops");
  await expect(desktop.getByTestId("drop-table").locator("tbody tr")).toHaveCount(3);
  await expect(desktop.getByTestId("no-matches")).toHaveCount(0);
  await expect(desktop).toHaveTitle("Drops · htmldrop");

  const row = desktop.getByTestId("drop-table").locator(`tr[data-slug="${drops[2]!.slug}"]`);
  await expect(row.locator('td[data-label="Updated"] time')).toHaveText(/just now|minute/);
  await expect(row.locator('td[data-label="Updated"] time')).toHaveAttribute("title", /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  await row.getByRole("button", { name: "Copy link of Listed three" }).click();
  await expect(row.getByRole("status")).toHaveText("Copied");
  expect(await desktop.evaluate(() => navigator.clipboard.readText())).toBe(drops[2]!.url);

  // The list takes the page's width; the filters are shown without a button to unfold them.
  expect((await desktop.getByTestId("drop-table").boundingBox())!.width).toBeGreaterThan(1200);
  await expect(desktop.getByLabel("Title contains")).toBeVisible();
  await expect(desktop.getByTestId("filters-fold").locator("summary")).toBeHidden();

  // On a freshly loaded page the first Tab reaches the skip link, which leads past the navigation.
  await desktop.goto(`${app.baseUrl}/dashboard`);
  await desktop.keyboard.press("Tab");
  await expect(desktop.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await desktop.keyboard.press("Enter");
  await expect(desktop).toHaveURL(/#content$/);
  await desktop.screenshot({ path: screenshotPath("dashboard-publish", "list-desktop"), fullPage: true });
  await expectNoAxeViolationsInBothSchemes(desktop);
  await desktop.context().close();
});

test("on a phone the list's filters fold behind a button that works without JavaScript", async ({ browser }) => {
  const login = "phoner";
  const token = await app.createToken(login, "agent");
  for (const title of ["Folded one", "Folded two"]) await createDrop(app, token, { title });
  const phone = await openAs(browser, login, "/dashboard", SCREENS[0], false);
  await expect(phone.getByLabel("Title contains")).toBeHidden();
  await phone.getByText("Filters and sorting").click();
  await expect(phone.getByLabel("Title contains")).toBeVisible();
  await phone.getByLabel("Title contains").fill("two");
  await phone.getByRole("button", { name: "Apply" }).click();
  await expect(phone.getByTestId("drop-table").locator("tbody tr")).toHaveCount(1);
  // While a filter is set the fold stays open and says so.
  await expect(phone.getByText("Filters (on)")).toBeVisible();
  await expect(phone.getByLabel("Title contains")).toHaveValue("two");
  expect(await hasHorizontalPageScroll(phone)).toBe(false);
  await phone.screenshot({ path: screenshotPath("dashboard-publish", "list-phone"), fullPage: true });
  await phone.context().close();

  // axe runs as a script in the page: checked with JavaScript on, the fold open and closed.
  const checked = await openAs(browser, login, "/dashboard", SCREENS[0]);
  await expectNoAxeViolationsInBothSchemes(checked);
  await checked.getByText("Filters and sorting").click();
  await expectNoAxeViolationsInBothSchemes(checked);
  await checked.context().close();
});
