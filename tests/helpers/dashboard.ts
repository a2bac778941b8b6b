// Browser helpers for the owner dashboard: a signed-in browser, drops made through the API, and
// PNG checks for screenshots.
import { readFileSync } from "node:fs";
import { expect, type Browser, type Page } from "@playwright/test";
import type { TestApp } from "./app";
import { localSignInCookies } from "./session";

/**
 * Signs the page's browser context in as `username` and opens `path`. The local sign-in is posted over
 * HTTP and its cookies handed to the browser: the sign-in pages and their redirects in the browser are
 * sign-in.spec's, and drawing them for every other test cost a page load each.
 */
export async function signInToDashboard(page: Page, app: TestApp, username: string, path = "/dashboard"): Promise<void> {
  const cookies = await localSignInCookies(app, username);
  await page.context().addCookies([...cookies].map(([name, value]) => ({ name, value, url: app.baseUrl })));
  await page.goto(`${app.baseUrl}${path}`);
  await expect(page).toHaveURL(`${app.baseUrl}${path}`);
}

/**
 * A new browser context of the given size, signed in as `login` and on `path`; without JavaScript when
 * asked, and with the clipboard for copy buttons when it runs.
 */
export async function openSignedIn(browser: Browser, app: TestApp, login: string, path: string, screen: { width: number; height: number }, javaScript = true): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height },
    javaScriptEnabled: javaScript,
    ...(javaScript ? { permissions: ["clipboard-read", "clipboard-write"] } : {}),
  });
  const page = await context.newPage();
  await signInToDashboard(page, app, login, path);
  return page;
}

export type CreatedDrop = { slug: string; title: string; url: string; raw_url: string };

export async function createDrop(app: TestApp, token: string, body: Record<string, unknown>): Promise<CreatedDrop> {
  const res = await app.api("/api/drops", { method: "POST", token, body: { html: "<!doctype html><h1>hello</h1>", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString("ascii")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Points a form's hidden field at something else, as a hand-crafted request would. */
export async function tamperHiddenField(page: Page, formLabel: string, name: string, value: string): Promise<void> {
  const input = page.getByRole("form", { name: formLabel }).locator(`input[type=hidden][name="${name}"]`);
  await input.evaluate((element, next) => ((element as HTMLInputElement).value = next), value);
}
