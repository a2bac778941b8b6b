// After a server action redirects, Next fetches the target page from "its own" address with the
// request's cookies. The server runs in a network namespace of its own, with traps on localhost:3000
// (Next's default address) inside: approving a device, deleting a drop and revoking a token in real
// Chromium must never reach them, and each redirect must still be answered from this server.
import { expect as baseExpect, test, type Page, type Response } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { createDrop, signInToDashboard } from "../helpers/dashboard";

// The machine is shared: a server action and its redirect can take seconds under load.
const expect = baseExpect.configure({ timeout: 20_000 });

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp({ privateNetwork: { traps: [3000] } });
  expect(app.logs()).toContain("htmldrop-test: traps listening on port 3000");
});

test.afterAll(async () => {
  await app?.stop();
});

/** The POST of a server action: with JavaScript, its redirect comes back as the target's RSC payload in the same response. */
function actionResponse(page: Page): Promise<Response> {
  return page.waitForResponse((response) => response.request().method() === "POST" && response.request().headers()["next-action"] !== undefined);
}

function expectNothingElseCalled(): void {
  expect(app.logs()).not.toContain("htmldrop-test: trapped");
  expect(app.logs()).not.toContain("failed to get redirect response");
  expect(app.logs()).not.toContain("ECONNREFUSED");
}

async function expectRedirectServedHere(response: Response, location: string): Promise<void> {
  expectNothingElseCalled();
  expect(response.status()).toBe(200);
  expect(response.headers()["x-action-redirect"]).toMatch(new RegExp(`^${location.replace(/[?]/g, "\\?")};`));
  // Next falls back to an empty body when it cannot fetch the target; the payload proves it could.
  expect(response.headers()["content-type"]).toContain("text/x-component");
}

async function approveDevice(page: Page): Promise<void> {
  const start = await app.api("/api/auth/start", { method: "POST", body: { label: "cli" } });
  const { code, poll_token } = start.body as { code: string; poll_token: string };
  await page.goto(`${app.baseUrl}/verify?code=${code}`);
  const approval = actionResponse(page);
  await page.getByRole("button", { name: "Approve this device" }).click();
  await expectRedirectServedHere(await approval, `/verify?code=${code}`);
  await expect(page.locator('[data-notice="approved"]')).toContainText("Device approved");
  expect((await app.api(`/api/auth/poll?token=${poll_token}`)).body.status).toBe("verified");
}

async function deleteDrop(page: Page, login: string): Promise<void> {
  const token = await app.createToken(login);
  const drop = await createDrop(app, token, { title: "Short-lived" });
  await page.goto(`${app.baseUrl}/dashboard/drops/${drop.slug}?tab=settings`);
  await page.getByText("Delete this drop…").click();
  const deletion = actionResponse(page);
  await page.getByRole("button", { name: "Yes, delete this drop and every version" }).click();
  await expectRedirectServedHere(await deletion, "/dashboard?notice=dropDeleted");
  await expect(page.getByTestId("notice")).toHaveText("The drop was deleted.");
  expect((await app.api(`/api/drops/${drop.slug}`, { token })).status).toBe(404);
}

async function revokeToken(page: Page, login: string): Promise<void> {
  const token = await app.createToken(login, "to revoke");
  const id = (await app.api("/api/me", { token })).body.token.id as string;
  await page.goto(`${app.baseUrl}/dashboard/tokens`);
  const row = page.getByTestId("token-table").locator(`tr[data-token-id="${id}"]`);
  await row.getByText("Revoke…").click();
  const revocation = actionResponse(page);
  await row.getByRole("button", { name: `Yes, revoke ${id}` }).click();
  await expectRedirectServedHere(await revocation, "/dashboard/tokens?notice=tokenRevoked");
  // A revoked token leaves the list (revoked ones are shown only on request).
  await expect(row).toHaveCount(0);
  expect((await app.api("/api/me", { token })).status).toBe(401);
}

test("an approval, a drop deletion and a token revocation fetch their redirect from this server only", async ({ page }) => {
  await signInToDashboard(page, app, "nina");
  await approveDevice(page);
  await deleteDrop(page, "nina");
  await revokeToken(page, "nina");
  expectNothingElseCalled();
});

test("behind a TLS proxy (X-Forwarded-Proto: https) the redirect is still fetched from this server", async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-proto": "https" } });
  try {
    const page = await context.newPage();
    await signInToDashboard(page, app, "omar");
    await approveDevice(page);
    await deleteDrop(page, "omar");
    await revokeToken(page, "omar");
  } finally {
    await context.close();
  }
  expectNothingElseCalled();
});
