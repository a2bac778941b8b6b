// The owner dashboard in real Chromium against the real server: local dev sign-in, drops made by an
// "agent" through the REST API, every mutation through the dashboard's server actions, checked back
// through the API.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { createDrop, pngSize, signInToDashboard, tamperHiddenField } from "../helpers/dashboard";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => {
  await app?.stop();
});

const rowOf = (page: Page, title: string) => page.getByTestId("drop-table").locator("tbody tr", { hasText: title });

test("a signed-out visitor signs in and comes back to the page asked for", async ({ page }) => {
  await signInToDashboard(page, app, "dora", "/dashboard/account");
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByTestId("identity")).toHaveText("dora (local)");
  // A new account has nothing yet: the drops page explains how to connect an agent.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Drops" }).click();
  await expect(page.getByTestId("empty-state")).toContainText("connect an agent");
  await expect(page.getByTestId("empty-state").getByRole("link", { name: "/api/onboard" })).toHaveAttribute("href", "/api/onboard");
  await expect(page.getByTestId("mcp-url")).toHaveText(`${app.baseUrl}/mcp`);
});

test("an owner lists, searches, tags, filters, locks and deletes drops made by an agent", async ({ page }) => {
  const token = await app.createToken("alice", "laptop");
  const report = await createDrop(app, token, { title: "Quarterly Report", metadata: { project: "alpha", team: "web" } });
  const notes = await createDrop(app, token, { title: "Design notes", metadata: { project: "beta" } });
  const secretHtml = "<!doctype html><p>TOP-SECRET-BODY</p>";
  const launch = await createDrop(app, token, { title: "Launch page", html: secretHtml });
  const put = await app.api(`/api/drops/${report.slug}`, { method: "PUT", token, body: { html: "<p>v2</p>", context: "why v2" } });
  expect(put.status).toBe(200);

  await signInToDashboard(page, app, "alice");
  await expect(page.getByTestId("drop-table").locator("tbody tr")).toHaveCount(3);
  await expect(rowOf(page, "Quarterly Report")).toContainText("v2");
  await expect(rowOf(page, "Quarterly Report")).toContainText("project=alpha");
  await expect(page.getByTestId("page-info")).toContainText("3 drops");

  // Title search is case-insensitive.
  await page.getByLabel("Title contains").fill("REPORT");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("drop-table").locator("tbody tr")).toHaveCount(1);
  await expect(rowOf(page, "Quarterly Report")).toBeVisible();

  // Sort by creation time, both ways (the list's default is last updated, newest first).
  await page.goto(`${app.baseUrl}/dashboard`);
  await page.getByLabel("Sort by").selectOption("created_at");
  await page.getByLabel("Order").selectOption("asc");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("drop-table").locator("tbody th")).toHaveText(["Quarterly Report", "Design notes", "Launch page"]);
  await page.getByLabel("Order").selectOption("desc");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("drop-table").locator("tbody th")).toHaveText(["Launch page", "Design notes", "Quarterly Report"]);

  // Edit the tags of another drop (PATCH: no new version).
  await page.goto(`${app.baseUrl}/dashboard/drops/${notes.slug}?tab=settings`);
  await page.getByLabel("Tags", { exact: true }).fill("project=alpha\nstage=draft");
  await page.getByRole("button", { name: "Save changes" }).click();
  const editForm = page.getByRole("form", { name: "Edit details and tags" });
  await expect(editForm.getByRole("status")).toHaveText("Changes saved.");
  const patched = await app.api(`/api/drops/${notes.slug}`, { token });
  expect(patched.body.metadata).toEqual({ project: "alpha", stage: "draft" });
  expect(patched.body.latest_version).toBe(1);
  expect(patched.body.title).toBe("Design notes");

  // A rule the service enforces comes back as the API's message, in the page.
  await page.getByLabel("Tags", { exact: true }).fill("Not A Key!=x");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(editForm.locator('[data-state="error"]')).toContainText("metadata keys use letters, digits");
  await expect(page.getByLabel("Tags", { exact: true })).toHaveValue("Not A Key!=x");

  // Filter by tags: AND semantics, like the API.
  await page.goto(`${app.baseUrl}/dashboard`);
  await page.getByLabel("Tags", { exact: true }).fill("project=alpha");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("drop-table").locator("tbody tr")).toHaveCount(2);
  await page.getByLabel("Tags", { exact: true }).fill("project=alpha, stage=draft");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("drop-table").locator("tbody tr")).toHaveCount(1);
  await expect(rowOf(page, "Design notes")).toBeVisible();
  // A tag chip filters by that tag alone.
  await page.goto(`${app.baseUrl}/dashboard`);
  await rowOf(page, "Quarterly Report").getByRole("link", { name: "team=web" }).click();
  await expect(page.getByLabel("Tags", { exact: true })).toHaveValue("team=web");
  await expect(page.getByTestId("drop-table").locator("tbody tr")).toHaveCount(1);

  // Lock a drop: the API reports it locked and the public side never serves its HTML.
  await page.goto(`${app.baseUrl}/dashboard/drops/${launch.slug}?tab=share`);
  await expect(page.getByRole("textbox", { name: "Viewer link" })).toHaveValue(launch.url);
  await expect(page.getByRole("textbox", { name: "Raw link" })).toHaveValue(launch.raw_url);
  await page.getByLabel("Passcode", { exact: true }).fill("open-sesame");
  await page.getByRole("button", { name: "Set passcode" }).click();
  await expect(page.getByRole("region", { name: "Passcode gate" }).locator('[data-state="ok"]')).toHaveText(/Passcode set/);
  await expect(page.getByTestId("lock-state")).toContainText("This drop is locked");
  expect((await app.api(`/api/drops/${launch.slug}`, { token })).body.locked).toBe(true);
  for (const path of [`/p/${launch.slug}`, `/p/${launch.slug}/raw`]) {
    expect((await app.api(path)).text).not.toContain("TOP-SECRET-BODY");
  }
  await expect(rowOfList(page, app, "Launch page")).resolves.toContain("Locked");
  await page.goto(`${app.baseUrl}/dashboard/drops/${launch.slug}?tab=share`);
  await page.getByRole("button", { name: "Remove passcode" }).click();
  await expect(page.getByTestId("lock-state")).toContainText("open to anyone");
  expect((await app.api(`/api/drops/${launch.slug}`, { token })).body.locked).toBe(false);

  // Delete a version; the last one cannot be deleted.
  await page.goto(`${app.baseUrl}/dashboard/drops/${report.slug}`);
  const versions = page.getByTestId("version-table");
  await expect(versions.locator("tbody tr")).toHaveCount(2);
  await expect(versions.locator('tr[data-version="2"]')).toContainText("Yes");
  await expect(versions.getByRole("link", { name: "Open v1" })).toHaveAttribute("href", `/p/${report.slug}?v=1`);
  await versions.getByText("Delete v2…").click();
  await page.getByRole("button", { name: "Yes, delete v2" }).click();
  await expect(page.getByTestId("notice")).toHaveText("The version was deleted.");
  await expect(versions.locator("tbody tr")).toHaveCount(1);
  await expect(versions.getByText(/Delete v\d…/)).toHaveCount(0);
  await expect(page.getByText("The only version cannot be deleted")).toBeVisible();
  const afterVersionDelete = await app.api(`/api/drops/${report.slug}/versions`, { token });
  expect(afterVersionDelete.body.map((version: { version: number }) => version.version)).toEqual([1]);

  // Delete a drop, after confirming.
  await page.getByRole("navigation", { name: "Drop sections" }).getByRole("link", { name: "Settings" }).click();
  await page.getByText("Delete this drop…").click();
  await page.getByRole("button", { name: "Yes, delete this drop and every version" }).click();
  await expect(page).toHaveURL(`${app.baseUrl}/dashboard?notice=dropDeleted`);
  await expect(page.getByTestId("notice")).toHaveText("The drop was deleted.");
  await expect(page.getByTestId("drop-table").locator("tbody tr")).toHaveCount(2);
  expect((await app.api(`/api/drops/${report.slug}`, { token })).status).toBe(404);

  // Account: the same user as the API's, with usage that includes the dashboard's writes.
  const me = await app.api("/api/me", { token });
  await page.goto(`${app.baseUrl}/dashboard/account`);
  await expect(page.getByTestId("user-id")).toHaveText(me.body.user_id);
  await expect(page.getByTestId("drop-count")).toHaveText("2");
  await expect(page.getByTestId("usage-drops-in-this-account")).toContainText("2 / 500");
  // 3 creates + 1 PUT by the agent; 1 patch, 2 passcode changes, 1 version and 1 drop deletion here.
  await expect(page.getByTestId("usage-writes-today-utc-day-")).toContainText("9 / 500");
});

async function rowOfList(page: Page, app: TestApp, title: string): Promise<string> {
  await page.goto(`${app.baseUrl}/dashboard`);
  return (await rowOf(page, title).textContent()) ?? "";
}

test("the list pages through an account's drops, 20 at a time", async ({ page }) => {
  const token = await app.createToken("hank");
  for (let index = 1; index <= 21; index += 1) await createDrop(app, token, { title: `Page test ${String(index).padStart(2, "0")}` });
  await signInToDashboard(page, app, "hank", "/dashboard?sortBy=created_at&sortOrder=asc");
  await expect(page.getByTestId("drop-table").locator("tbody tr")).toHaveCount(20);
  await expect(page.getByTestId("page-info")).toHaveText("Page 1 of 2 · 21 drops");
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId("drop-table").locator("tbody th")).toHaveText(["Page test 21"]);
  await expect(page.getByTestId("page-info")).toHaveText("Page 2 of 2 · 21 drops");
  await page.getByRole("link", { name: "← Previous" }).click();
  await expect(page.getByTestId("drop-table").locator("tbody th").first()).toHaveText("Page test 01");
});

test("an owner revokes a token and the API rejects it at once", async ({ page }) => {
  const laptop = await app.createToken("erin", "laptop");
  const lost = await app.createToken("erin", "lost phone");
  const lostId = (await app.api("/api/me", { token: lost })).body.token.id as string;
  await signInToDashboard(page, app, "erin", "/dashboard/tokens");
  const table = page.getByTestId("token-table");
  await expect(table.locator("tbody tr")).toHaveCount(2);
  const row = table.locator(`tr[data-token-id="${lostId}"]`);
  await expect(row).toContainText("lost phone");
  await expect(row).toContainText(lostId);
  await row.getByText("Revoke…").click();
  await row.getByRole("button", { name: `Yes, revoke ${lostId}` }).click();
  await expect(page.getByTestId("notice")).toHaveText(/Token revoked/);
  // Revoked tokens leave the list, behind a link that shows them.
  await expect(row).toHaveCount(0);
  await page.getByRole("link", { name: "Show revoked tokens (1)" }).click();
  await expect(row).toContainText("Revoked");
  expect((await app.api("/api/me", { token: lost })).status).toBe(401);
  expect((await app.api("/api/me", { token: laptop })).status).toBe(200);
  // No plaintext token is ever in the page.
  expect(await page.content()).not.toMatch(/hd_[0-9A-Za-z]{40}/);
});

test("no account sees or changes another account's drops or tokens through the dashboard", async ({ page }) => {
  const carolToken = await app.createToken("carol", "carol laptop");
  const carolTokenId = (await app.api("/api/me", { token: carolToken })).body.token.id as string;
  const carols = await createDrop(app, carolToken, { title: "Carol private plan", metadata: { owner: "carol" } });
  await app.api(`/api/drops/${carols.slug}`, { method: "PUT", token: carolToken, body: { html: "<p>v2</p>" } });
  const malloryToken = await app.createToken("mallory");
  const mallorys = await createDrop(app, malloryToken, { title: "Mallory drop" });
  await app.api(`/api/drops/${mallorys.slug}`, { method: "PUT", token: malloryToken, body: { html: "<p>v2</p>" } });

  await signInToDashboard(page, app, "mallory");
  await expect(page.getByTestId("drop-table")).not.toContainText("Carol private plan");
  await page.goto(`${app.baseUrl}/dashboard?tags=owner%3Dcarol`);
  await expect(page.getByTestId("no-matches")).toBeVisible();
  const foreign = await page.goto(`${app.baseUrl}/dashboard/drops/${carols.slug}`);
  expect(foreign?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  // Still inside the dashboard: its navigation stays.
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  expect((await page.goto(`${app.baseUrl}/dashboard/drops/not-a-slug!`))?.status()).toBe(404);

  // Hand-crafted requests: Mallory's own forms, pointed at Carol's drop.
  await page.goto(`${app.baseUrl}/dashboard/drops/${mallorys.slug}?tab=settings`);
  const refused = "No such drop in your account.";
  await tamperHiddenField(page, "Edit details and tags", "slug", carols.slug);
  await page.getByLabel("Title").fill("pwned");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("form", { name: "Edit details and tags" }).getByRole("status")).toHaveText(refused);

  await page.goto(`${app.baseUrl}/dashboard/drops/${mallorys.slug}?tab=share`);
  await tamperHiddenField(page, "Set passcode", "slug", carols.slug);
  await page.getByLabel("Passcode", { exact: true }).fill("locked-you-out");
  await page.getByRole("button", { name: "Set passcode" }).click();
  await expect(page.getByRole("form", { name: "Set passcode" }).getByRole("status")).toHaveText(refused);

  await page.goto(`${app.baseUrl}/dashboard/drops/${mallorys.slug}`);
  await page.getByText("Delete v1…").click();
  await tamperHiddenField(page, "Delete version 1", "slug", carols.slug);
  await page.getByRole("button", { name: "Yes, delete v1" }).click();
  await expect(page.getByRole("form", { name: "Delete version 1" }).getByRole("status")).toHaveText(refused);

  await page.goto(`${app.baseUrl}/dashboard/drops/${mallorys.slug}?tab=settings`);
  await page.getByText("Delete this drop…").click();
  await tamperHiddenField(page, "Delete drop", "slug", carols.slug);
  await page.getByRole("button", { name: "Yes, delete this drop and every version" }).click();
  await expect(page.getByRole("form", { name: "Delete drop" }).getByRole("status")).toHaveText(refused);

  const carolsNow = await app.api(`/api/drops/${carols.slug}`, { token: carolToken });
  expect(carolsNow.status).toBe(200);
  expect(carolsNow.body).toMatchObject({ title: "Carol private plan", locked: false, latest_version: 2 });
  expect((await app.api(`/api/drops/${carols.slug}/versions`, { token: carolToken })).body).toHaveLength(2);
  expect((await app.api(`/api/drops/${mallorys.slug}`, { token: malloryToken })).body.title).toBe("Mallory drop");

  // Tokens: Carol's is not listed for Mallory, and revoking it by id fails.
  await page.goto(`${app.baseUrl}/dashboard/tokens`);
  await expect(page.getByTestId("token-table")).not.toContainText(carolTokenId);
  const row = page.getByTestId("token-table").locator("tbody tr").first();
  const ownId = await row.getAttribute("data-token-id");
  await row.getByText("Revoke…").click();
  await tamperHiddenField(page, `Revoke token ${ownId}`, "id", carolTokenId);
  await row.getByRole("button", { name: `Yes, revoke ${ownId}` }).click();
  await expect(row.getByRole("status")).toHaveText("No such token in your account.");
  expect((await app.api("/api/me", { token: carolToken })).status).toBe(200);
  expect((await app.api("/api/me", { token: malloryToken })).status).toBe(200);

  // Without a session, an action does nothing at all, even on the caller's own token.
  await page.reload();
  await page.context().clearCookies();
  await row.getByText("Revoke…").click();
  await row.getByRole("button", { name: `Yes, revoke ${ownId}` }).click();
  await expect(row.getByRole("status")).toHaveText("Your session has ended. Sign in again and retry.");
  expect((await app.api("/api/me", { token: malloryToken })).status).toBe(200);
});

test("dashboard writes count against the account's daily write quota, and the page says so", async ({ browser }) => {
  // The daily window, not the per-minute one: a minute boundary mid-test would reset the count.
  const limited = await startApp({ env: { LIMIT_WRITES_PER_DAY: "3" } });
  const page = await browser.newPage();
  try {
    const token = await limited.createToken("frank");
    const drop = await createDrop(limited, token, { title: "Limited" }); // write 1
    await signInToDashboard(page, limited, "frank", `/dashboard/drops/${drop.slug}?tab=settings`);
    const form = page.getByRole("form", { name: "Edit details and tags" });
    for (const title of ["Limited 2", "Limited 3"]) {
      await page.getByLabel("Title").fill(title);
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(form.getByRole("status")).toHaveText("Changes saved.");
      // A GET, never a reload: a save clicked before hydration posts the plain form, and reloading its
      // answer would post it again, spending a write the test did not make.
      await page.goto(`${limited.baseUrl}/dashboard/drops/${drop.slug}?tab=settings`);
    }
    await page.getByLabel("Title").fill("Limited 4");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(form.locator('[data-state="error"]')).toHaveText("Daily write quota reached: at most 3 writes per day per account.");
    expect((await limited.api(`/api/drops/${drop.slug}`, { token })).body.title).toBe("Limited 3");
  } finally {
    await page.close();
    await limited.stop();
  }
});

test("without JavaScript, a refused edit, person or team member keeps what was typed and says why", async ({ browser }) => {
  const token = await app.createToken("nojsowner");
  const drop = await createDrop(app, token, { title: "Stored title", metadata: { stage: "draft" } });
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInToDashboard(page, app, "nojsowner", `/dashboard/drops/${drop.slug}?tab=settings`);
  const edit = page.getByRole("form", { name: "Edit details and tags" });
  await edit.getByLabel("Title").fill("Typed title");
  await edit.getByLabel("Description").fill("Typed description");
  await edit.getByLabel("Tags", { exact: true }).fill("Not A Key!=x");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.locator('[data-state="error"]')).toContainText("metadata keys use letters, digits");
  await expect(edit.getByLabel("Title")).toHaveValue("Typed title");
  await expect(edit.getByLabel("Description")).toHaveValue("Typed description");
  await expect(edit.getByLabel("Tags", { exact: true })).toHaveValue("Not A Key!=x");
  expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.title).toBe("Stored title");

  await page.goto(`${app.baseUrl}/dashboard/drops/${drop.slug}?tab=share`);
  const add = page.getByRole("form", { name: "Add a person" });
  await add.getByLabel("Login or email").fill("not an@email");
  await add.getByLabel("Role").selectOption("editor");
  await add.getByRole("button", { name: "Add person" }).click();
  await expect(add.getByRole("status")).toHaveText("Email must be an email address.");
  await expect(add.getByLabel("Login or email")).toHaveValue("not an@email");
  await expect(add.getByLabel("Role")).toHaveValue("editor");

  await page.goto(`${app.baseUrl}/dashboard/teams`);
  const make = page.getByRole("form", { name: "New team" });
  await make.getByLabel("Name").fill("Plain crew");
  await make.getByRole("button", { name: "Make team" }).click();
  await expect(make.getByRole("status")).toHaveText("Team made. Add its members below.");
  const addMember = page.getByRole("form", { name: "Add a member to Plain crew" });
  await addMember.getByLabel("Login or email").fill("not an@email");
  await addMember.getByRole("button", { name: "Add member" }).click();
  await expect(addMember.getByRole("status")).toHaveText("Email must be an email address.");
  await expect(addMember.getByLabel("Login or email")).toHaveValue("not an@email");
  await context.close();
});

test("the main pages look right on a phone and on a desktop", async ({ browser }) => {
  const token = await app.createToken("gina", "work laptop");
  await app.createToken("gina", "home desktop");
  const first = await createDrop(app, token, {
    title: "Weekly metrics dashboard with a rather long title that wraps",
    description: "Numbers for the team.",
    metadata: { project: "metrics", team: "data", week: "47" },
  });
  await app.api(`/api/drops/${first.slug}`, { method: "PUT", token, body: { html: "<p>v2</p>", context: "refreshed numbers" } });
  await app.api(`/api/drops/${first.slug}`, { method: "PUT", token, body: { html: "<p>v3</p>", context: "the totals fixed" } });
  await createDrop(app, token, { title: "Onboarding guide", metadata: { project: "docs" }, passcode: "letmein" });
  await createDrop(app, token, { title: "Architecture sketch" });

  const outDir = join(process.cwd(), "test-results", "dashboard-screens");
  mkdirSync(outDir, { recursive: true });
  const pages = { drops: "/dashboard", drop: `/dashboard/drops/${first.slug}`, "drop-share": `/dashboard/drops/${first.slug}?tab=share`, tokens: "/dashboard/tokens", account: "/dashboard/account" };
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 844 } });
    const page = await context.newPage();
    await signInToDashboard(page, app, "gina");
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(`${app.baseUrl}${path}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // Nothing may stick out sideways: a phone must never scroll horizontally.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} at ${width}px overflows by ${overflow}px`).toBeLessThanOrEqual(0);
      if (name === "drop") {
        // A drop's first tab, three versions and all, is one desktop screen (1280×800); on a phone the
        // first screen holds the preview and the primary actions.
        if (width === 1280) {
          await page.setViewportSize({ width, height: 800 });
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          expect(height, `the drop's page is ${height}px tall`).toBeLessThanOrEqual(800);
          await page.setViewportSize({ width, height: 844 });
        } else {
          await expect(page.locator('iframe[title="Preview of v3"]')).toBeInViewport();
          await expect(page.getByRole("link", { name: "Edit HTML" })).toBeInViewport();
        }
      }
      const file = join(outDir, `${name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const size = pngSize(file);
      expect(size.width).toBe(width);
      expect(size.height).toBeGreaterThanOrEqual(300);
      expect(size.height).toBeLessThan(6000);
    }
    await context.close();
  }
});
