// The drop editor in real Chromium against the real server, at a phone's and a desktop's width: from the
// drop's page to CodeMirror holding the latest version, a typo fixed in it, the change in the sandboxed
// preview (beside the editor, or behind its tab on a phone), published with a context, and the viewer
// showing the new version. Its form without JavaScript is tests/api/server-actions.test.ts's.
import { expect, test } from "@playwright/test";
import { hasHorizontalPageScroll, SCREENS, screenshotPath } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";
import { createDrop, openSignedIn } from "../helpers/dashboard";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => {
  await app?.stop();
});

// The typo ends its line, so End and Backspace fix it. The script shows where the document runs: a
// sandbox without allow-same-origin gives it an opaque origin, "null".
const MENU = `<!doctype html>
<html lang="en">
<head><title>Menu</title></head>
<body>
<h1>Today</h1>
<p id="soup">Soup of the day: tomatoe
</p>
<p id="origin"></p>
<script>document.getElementById("origin").textContent = "Runs in origin " + origin;</script>
</body>
</html>
`;

for (const screen of SCREENS) {
  test(`the owner fixes a typo in the editor, sees it in the preview and publishes it, at ${screen.width} px`, async ({ browser }) => {
    const phone = screen.name === "phone";
    const login = `editor-${screen.name}`;
    const token = await app.createToken(login, "check");
    const drop = await createDrop(app, token, { title: "Menu", html: MENU });
    const page = await openSignedIn(browser, app, login, `/dashboard/drops/${drop.slug}`, screen);

    await page.getByRole("link", { name: "Edit the current HTML" }).click();
    await expect(page).toHaveTitle("Edit Menu · htmldrop dashboard");
    const editor = page.getByRole("textbox", { name: "HTML of version 1" });
    await expect(editor).toContainText("Soup of the day: tomatoe");
    const preview = page.frameLocator('iframe[title="Preview of your edit"]');
    const showPreview = () => (phone ? page.getByRole("tab", { name: "Preview" }).click() : Promise.resolve());
    const showEditor = () => (phone ? page.getByRole("tab", { name: "Editor" }).click() : Promise.resolve());

    await showPreview();
    await expect(preview.locator("#soup")).toHaveText("Soup of the day: tomatoe");
    await expect(preview.locator("#origin")).toHaveText("Runs in origin null");
    await showEditor();
    await editor.locator(".cm-line", { hasText: "tomatoe" }).click();
    await page.keyboard.press("End");
    await page.keyboard.press("Backspace");
    await expect(editor).toContainText("Soup of the day: tomato\n", { useInnerText: true });
    await showPreview();
    await expect(preview.locator("#soup")).toHaveText("Soup of the day: tomato");
    await page.screenshot({ path: screenshotPath("dashboard-editor", `preview-${screen.name}`), fullPage: true });

    await page.getByLabel("Context (optional)").fill("Tomato is spelled without an e.");
    await page.getByRole("button", { name: "Publish new version" }).click();
    const form = page.getByRole("form", { name: "Edit HTML" });
    await expect(form.getByRole("status")).toHaveText("Version 2 published with its context. It is now the latest. Open it in the viewer");
    // The text stays open, now based on the version just made; the context was this version's.
    await showEditor();
    await expect(page.getByRole("textbox", { name: "HTML of version 2" })).toContainText("Soup of the day: tomato");
    await expect(page.getByLabel("Context (optional)")).toHaveValue("");
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    const published = await app.api(`/api/drops/${drop.slug}/v/2`, { token });
    expect(published.body.context).toBe("Tomato is spelled without an e.");

    await form.getByRole("link", { name: "Open it in the viewer" }).click();
    await expect(page).toHaveURL(new RegExp(`/p/${drop.slug}$`));
    await expect(page.frameLocator("iframe").locator("#soup")).toHaveText("Soup of the day: tomato");
  });
}
