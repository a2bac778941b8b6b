// Live viewers in real Chromium: a reader of the latest version is told of a version published through
// the API while the page is open, and shown it when asked; the opt-in to follow along, remembered by the
// browser; a reader of a pinned version (?v=N) is never told or moved, and never polls.
import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolationsInBothSchemes, hasHorizontalPageScroll, SCREENS, screenshotPath } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let token: string;

// A poll every 2 to 4 s, and a page load: well inside this.
const WINDOW = { timeout: 15_000 };
const WORDS = ["one", "two", "three", "four"];

test.beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("live-e2e");
});
test.afterAll(async () => app?.stop());

async function createDrop(): Promise<{ slug: string; url: string }> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Live report", html: "<h1>Version one</h1>" } });
  expect(created.status).toBe(201);
  return created.body;
}

async function publish(slug: string, version: number): Promise<void> {
  const put = await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: `<h1>Version ${WORDS[version - 1]}</h1>` } });
  expect(put.status).toBe(200);
}

function showsVersion(page: Page, version: number) {
  return expect(page.frameLocator("iframe").getByRole("heading", { name: `Version ${WORDS[version - 1]}` })).toBeVisible(WINDOW);
}

/** Counts the page's polls of the live document. */
function countPolls(page: Page): () => number {
  let polls = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/live.json")) polls++;
  });
  return () => polls;
}

test(`a reader of the latest is told of a new version and shown it, a pinned reader is not moved (${SCREENS[0].name})`, async ({ browser }) => {
  const screen = SCREENS[0];
  const drop = await createDrop();
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
  const reader = await context.newPage();
  const pinned = await context.newPage();
  const pinnedPolls = countPolls(pinned);
  await pinned.goto(`${drop.url}?v=1`);
  await reader.goto(drop.url);
  await showsVersion(reader, 1);
  const frameBefore = await reader.locator("iframe").boundingBox();

  await publish(drop.slug, 2);
  await expect(reader.getByRole("status")).toHaveText("Version 2 is available.", WINDOW);
  // It floats: nothing under the reader moved, and nothing is wider than the screen.
  expect(await reader.locator("iframe").boundingBox()).toEqual(frameBefore);
  expect(await hasHorizontalPageScroll(reader)).toBe(false);
  await reader.screenshot({ path: screenshotPath("live-viewer", `available-${screen.name}`) });
  await expectNoAxeViolationsInBothSchemes(reader);

  await reader.getByRole("button", { name: "Show version 2" }).click();
  await showsVersion(reader, 2);
  await expect(reader.getByRole("status")).toHaveText("Now showing version 2, the latest.");
  // The latest's address again, so the reader goes on following the latest.
  expect(reader.url()).toBe(drop.url);
  await expect(reader.getByRole("combobox", { name: "Version" })).toHaveValue("2");

  expect(pinned.url()).toBe(`${drop.url}?v=1`);
  await showsVersion(pinned, 1);
  await expect(pinned.getByRole("status")).toHaveText("");
  expect(pinnedPolls()).toBe(0);
  await context.close();
});

test("the opt-in to follow along shows each new version by itself, and the browser remembers it", async ({ browser }) => {
  const drop = await createDrop();
  const context = await browser.newContext();
  const reader = await context.newPage();
  await reader.goto(drop.url);
  await showsVersion(reader, 1);
  await publish(drop.slug, 2);
  const follow = reader.getByRole("checkbox", { name: "Show new versions automatically" });
  await expect(follow).not.toBeChecked(WINDOW);
  await follow.check();
  // Choosing to follow moves nobody: the version already announced is still one click away.
  await expect(reader.getByRole("button", { name: "Show version 2" })).toBeVisible();

  await publish(drop.slug, 3);
  await showsVersion(reader, 3);
  await expect(reader.getByRole("status")).toHaveText("Now showing version 3, the latest.");
  expect(reader.url()).toBe(drop.url);
  await expect(follow).toBeChecked();

  // Remembered across pages of this browser; a pinned reader is still never moved.
  const pinned = await context.newPage();
  const pinnedPolls = countPolls(pinned);
  await pinned.goto(`${drop.url}?v=1`);
  await reader.reload();
  await showsVersion(reader, 3);
  await publish(drop.slug, 4);
  await showsVersion(reader, 4);
  expect(pinned.url()).toBe(`${drop.url}?v=1`);
  expect(pinnedPolls()).toBe(0);
  await context.close();
});
