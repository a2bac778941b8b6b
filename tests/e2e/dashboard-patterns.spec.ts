// The dashboard's Patterns page in real Chromium against the real server: the account's patterns and the
// built-in ones, a pattern started from a built-in one, saved, edited and deleted, refusals under their
// fields, files chosen and dropped, and the form without JavaScript. Every result is read back over
// REST with a token of the same account (the local sign-in makes the login's own account).
import { expect, test, type Browser, type Page } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { expectNoAxeViolationsInBothSchemes, hasHorizontalPageScroll, SCREENS, screenshotPath } from "../helpers/a11y";
import { openSignedIn } from "../helpers/dashboard";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => {
  await app?.stop();
});

const openAs = (browser: Browser, login: string, path: string, screen: { width: number; height: number }, javaScript = true) =>
  openSignedIn(browser, app, login, path, screen, javaScript);

function markdownOf(name: string, { description = `A ${name} page.`, template = false } = {}): string {
  return [
    "---",
    `name: ${name}`,
    `description: ${description}`,
    "triggers:",
    `  - make a ${name}`,
    ...(template ? [`template: ${name}.template.html`] : []),
    "---",
    "",
    `# ${name}`,
    "",
    "## When to use",
    "When asked.",
    "",
  ].join("\n");
}

function row(page: Page, name: string) {
  return page.getByTestId("pattern-table").locator(`tr[data-pattern="${name}"]`);
}

test(`start from a built-in pattern, save it as your own, edit it and delete it, at ${SCREENS[0].width} px`, async ({ browser }) => {
  const screen = SCREENS[0];
  const login = `patterns${screen.width}`;
  const token = await app.createToken(login, "check");
  const page = await openAs(browser, login, "/dashboard", screen);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Patterns" }).click();
  await expect(page).toHaveURL(`${app.baseUrl}/dashboard/patterns`);
  await expect(page).toHaveTitle("Patterns · htmldrop dashboard");

  // The built-in ones, with their public files.
  const builtin = row(page, "status-report");
  await expect(builtin).toHaveAttribute("data-source", "builtin");
  await expect(builtin.getByTestId("pattern-source")).toContainText("Built-in");
  const markdownLink = builtin.getByRole("link", { name: "Markdown: status-report", exact: true });
  await expect(markdownLink).toHaveAttribute("href", `${app.baseUrl}/.well-known/patterns/status-report.md`);
  await expect(builtin.getByRole("link", { name: "Template: status-report" })).toHaveAttribute("href", `${app.baseUrl}/.well-known/patterns/status-report.template.html`);
  expect((await fetch(`${app.baseUrl}/.well-known/patterns/status-report.md`)).status).toBe(200);
  expect(await hasHorizontalPageScroll(page)).toBe(false);
  await page.screenshot({ path: screenshotPath("dashboard-patterns", `list-${screen.name}`), fullPage: true });
  await expectNoAxeViolationsInBothSchemes(page);

  // "Start from this" fills the form with the built-in pattern.
  await builtin.getByRole("link", { name: "Start from this: status-report" }).click();
  await expect(page).toHaveURL(/\/dashboard\/patterns\?from=status-report#pattern-form-heading$/);
  await expect(page.getByRole("heading", { name: "New pattern from status-report" })).toBeVisible();
  const form = page.getByRole("form", { name: "Save pattern" });
  const builtinPattern = (await app.api("/api/patterns/status-report", { token })).body as { markdown: string; template: string };
  await expect(form.getByLabel("Name")).toHaveValue("status-report");
  await expect(form.getByLabel("Or paste Markdown")).toHaveValue(builtinPattern.markdown);
  await expect(form.getByLabel("Or paste the template")).toHaveValue(builtinPattern.template);

  // A new name alone: the front matter still names the built-in one, which is said under the Markdown.
  await form.getByLabel("Name").fill("team-status");
  await form.getByRole("button", { name: "Save pattern" }).click();
  await expect(form.getByRole("status")).toHaveText("The pattern was not saved: see the field marked below.");
  await expect(form.getByTestId("markdown-error")).toHaveText("The front matter names the pattern status-report, but it is saved as team-status: make them the same.");
  await expect(form.getByLabel("Or paste Markdown")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Or paste Markdown")).toHaveAttribute("aria-describedby", /pattern-markdown-error/);

  // Front matter without triggers: the same place, in plain words; the typed name stays.
  const own = builtinPattern.markdown
    .replace("name: status-report", "name: team-status")
    .replace("template: status-report.template.html", "template: team-status.template.html")
    .replace(/description: .*/, "description: Our weekly team status.");
  await form.getByLabel("Or paste Markdown").fill(own.replace(/triggers:\n(  - .*\n)+/, ""));
  await form.getByRole("button", { name: "Save pattern" }).click();
  await expect(form.getByTestId("markdown-error")).toHaveText("Check the front matter: add a “triggers:” line.");
  await expect(form.getByLabel("Name")).toHaveValue("team-status");
  expect(await hasHorizontalPageScroll(page)).toBe(false);
  await page.screenshot({ path: screenshotPath("dashboard-patterns", `field-error-${screen.name}`), fullPage: true });
  await expectNoAxeViolationsInBothSchemes(page);

  await form.getByLabel("Or paste Markdown").fill(own);
  await form.getByRole("button", { name: "Save pattern" }).click();
  await expect(page).toHaveURL(/\/dashboard\/patterns\?edit=team-status&notice=patternAdded$/);
  await expect(page.getByTestId("notice")).toHaveText(/^Pattern added\./);
  const mine = row(page, "team-status");
  await expect(mine).toHaveAttribute("data-source", "account");
  await expect(mine.getByTestId("pattern-source")).toContainText("Yours");
  await expect(mine).toContainText("Our weekly team status.");
  await expect(row(page, "status-report")).toHaveAttribute("data-source", "builtin");

  // Read back over REST by an agent of the same account.
  const saved = await app.api("/api/patterns/team-status", { token });
  expect(saved.status, saved.text).toBe(200);
  expect(saved.body).toMatchObject({ name: "team-status", source: "account", description: "Our weekly team status.", has_template: true, markdown: own, template: builtinPattern.template });

  // The edit form opened on the saved pattern; saving again replaces it.
  await expect(page.getByRole("heading", { name: "Edit team-status" })).toBeVisible();
  await expect(form.getByLabel("Or paste Markdown")).toHaveValue(own);
  await page.screenshot({ path: screenshotPath("dashboard-patterns", `edit-${screen.name}`), fullPage: true });
  await form.getByLabel("Or paste Markdown").fill(own.replace("Our weekly team status.", "Our weekly team status, with risks."));
  await form.getByRole("button", { name: "Save pattern" }).click();
  await expect(page).toHaveURL(/notice=patternReplaced$/);
  await expect(page.getByTestId("notice")).toHaveText(/^Pattern saved\. It replaces your earlier version/);
  expect((await app.api("/api/patterns/team-status", { token })).body.description).toBe("Our weekly team status, with risks.");

  // "Edit" from the list opens the same form.
  await page.goto(`${app.baseUrl}/dashboard/patterns`);
  await row(page, "team-status").getByRole("link", { name: "Edit: team-status" }).click();
  await expect(page.getByRole("heading", { name: "Edit team-status" })).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveValue("team-status");

  // Deleting asks first.
  const confirm = row(page, "team-status").locator("details");
  await confirm.getByText("Delete…").click();
  await confirm.getByRole("button", { name: "Yes, delete team-status" }).click();
  await expect(page).toHaveURL(/\/dashboard\/patterns\?notice=patternDeleted$/);
  await expect(page.getByTestId("notice")).toHaveText("Pattern deleted. Your agents no longer see it.");
  await expect(row(page, "team-status")).toHaveCount(0);
  expect((await app.api("/api/patterns/team-status", { token })).status).toBe(404);
  expect(await hasHorizontalPageScroll(page)).toBe(false);
  await page.context().close();
});

test("yours in place of a built-in one, until it is deleted", async ({ browser }) => {
  const login = "shadower";
  const token = await app.createToken(login, "check");
  const page = await openAs(browser, login, "/dashboard/patterns?from=decision-record", SCREENS[1]);
  const form = page.getByRole("form", { name: "Save pattern" });
  await form.getByRole("button", { name: "Save pattern" }).click();
  await expect(page.getByTestId("notice")).toHaveText(/^Pattern added\. It replaces the built-in pattern of the same name for your agents/);
  const mine = row(page, "decision-record");
  await expect(mine).toHaveAttribute("data-source", "account");
  await expect(mine.getByTestId("pattern-source")).toContainText("Yours, in place of the built-in one");
  await expect(mine.getByRole("link", { name: "The built-in one: decision-record" })).toHaveAttribute("href", "/.well-known/patterns/decision-record.md");
  expect((await app.api("/api/patterns/decision-record", { token })).body.source).toBe("account");

  await mine.locator("details").getByText("Delete…").click();
  await expect(mine.getByText("they get the built-in pattern of the same name again")).toBeVisible();
  await mine.getByRole("button", { name: "Yes, delete decision-record" }).click();
  await expect(page.getByTestId("notice")).toHaveText("Pattern deleted. Your agents no longer see it.");
  await expect(row(page, "decision-record")).toHaveAttribute("data-source", "builtin");
  expect((await app.api("/api/patterns/decision-record", { token })).body.source).toBe("builtin");
  await page.context().close();
});

test("a pattern from a chosen .md file and a template dropped on the page; a named template that is missing is asked for", async ({ browser }) => {
  const login = "patternfiles";
  const token = await app.createToken(login, "check");
  const page = await openAs(browser, login, "/dashboard/patterns", SCREENS[0]);
  const form = page.getByRole("form", { name: "Save pattern" });
  // The page offers dropping once its script runs, which also checks a chosen file.
  await expect(form.getByText(/^Drop it anywhere on this page/).first()).toBeVisible();
  await form.getByLabel("Name").fill("release-notes");

  await form.getByLabel("Markdown file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plain") });
  await expect(form.getByTestId("markdown-error")).toHaveText("“notes.txt” is not a Markdown file. Choose a file ending in .md.");
  const markdown = markdownOf("release-notes", { template: true });
  await form.getByLabel("Markdown file").setInputFiles({ name: "release-notes.md", mimeType: "text/markdown", buffer: Buffer.from(markdown) });
  await expect(form.getByTestId("markdown-error")).toHaveCount(0);

  // The front matter names a template that was not given.
  await form.getByRole("button", { name: "Save pattern" }).click();
  await expect(form.getByTestId("template-error")).toHaveText(
    "The front matter names a template (template: release-notes.template.html). Add it here, or remove the template line from the Markdown.",
  );

  // An .html file dropped anywhere on the page goes to the template.
  const template = "<!doctype html><title>Release notes</title><h1>Release notes</h1>";
  await page.getByRole("heading", { level: 1 }).evaluate((target, html) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([html], "release-notes.template.html", { type: "text/html" }));
    target.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, template);
  await expect(form.getByTestId("template-upload").getByTestId("dropped-file")).toHaveText("Dropped: release-notes.template.html");
  await expect(form.getByTestId("template-error")).toHaveCount(0);
  await form.getByRole("button", { name: "Save pattern" }).click();
  await expect(page).toHaveURL(/\?edit=release-notes&notice=patternAdded$/);
  const saved = (await app.api("/api/patterns/release-notes", { token })).body;
  expect(saved).toMatchObject({ source: "account", markdown, template, has_template: true });
  await page.context().close();
});

test("without JavaScript, a pasted pattern is refused in plain words, kept, then saved", async ({ browser }) => {
  const login = "patternsnojs";
  const token = await app.createToken(login, "check");
  const page = await openAs(browser, login, "/dashboard/patterns", SCREENS[0], false);
  await expect(page.getByText("Choose it (.md), or paste the Markdown below.", { exact: false })).toBeVisible();
  await page.getByLabel("Name").fill("Not Kebab");
  await page.getByLabel("Or paste Markdown").fill(markdownOf("not-kebab"));
  await page.getByRole("button", { name: "Save pattern" }).click();
  await expect(page.getByTestId("name-error")).toHaveText(
    "A pattern name is kebab-case: lower-case letters and digits in words joined by single hyphens, e.g. pr-explainer.",
  );
  await expect(page.getByLabel("Or paste Markdown")).toHaveValue(markdownOf("not-kebab"));

  await page.getByLabel("Name").fill("not-kebab");
  await page.getByRole("button", { name: "Save pattern" }).click();
  await expect(page.getByTestId("notice")).toHaveText(/^Pattern added\./);
  expect((await app.api("/api/patterns/not-kebab", { token })).body).toMatchObject({ source: "account", has_template: false });
  await page.context().close();
});
