// The OAuth consent page in real Chromium, on a phone and on a desktop: a client registered by
// dynamic registration sends the browser to /oauth/authorize; the human signs in with the local
// sign-in, reads the consent page (the client's hostile name shown as text, its redirect host, the one
// scope asked), approves (code, state and iss come back; the code buys tokens) and, the second time, denies.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { freePort, startApp, type TestApp } from "../helpers/app";
import { mcpAuthorizationRequest, tokenRequest } from "../helpers/oauth";

// What a hostile app could call itself: markup that would run script if the page rendered it as HTML.
const HOSTILE_NAME = "<img src=x onerror=alert(1)>Evil";

let app: TestApp;
let origin: string;
let redirectServer: Server;
let redirectUri: string;
let clientId: string;

/** The app's loopback redirect listener: a page that says so, so the browser has somewhere to land. */
async function startRedirectServer(): Promise<void> {
  redirectServer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end("<!doctype html><title>Back in the app</title><p>You can close this window.</p>");
  });
  await new Promise<void>((resolve) => redirectServer.listen(0, "127.0.0.1", resolve));
  redirectUri = `http://127.0.0.1:${(redirectServer.address() as AddressInfo).port}/callback`;
}

test.beforeAll(async () => {
  await startRedirectServer();
  const port = await freePort();
  // The browser talks to 127.0.0.1, so PUBLIC_URL must be that origin: cookies and the consent form's Origin check match it.
  origin = `http://127.0.0.1:${port}`;
  app = await startApp({ env: { PORT: String(port), PUBLIC_URL: origin } });
  const registration = await fetch(`${origin}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: HOSTILE_NAME, redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }),
  });
  const body = (await registration.json()) as { client_id?: string; client_name?: string };
  expect(registration.status, JSON.stringify(body)).toBe(201);
  expect(body.client_name).toBe(HOSTILE_NAME);
  clientId = body.client_id!;
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => redirectServer?.close(resolve));
});

/** An authorization request as an MCP client builds it, with a state of its own. */
function authorizationRequest() {
  const state = `st-${Math.random().toString(36).slice(2)}`;
  return { ...mcpAuthorizationRequest(origin, clientId, redirectUri, state), state };
}

/** The consent page as a person reads it, at this width: who asks, where it returns, what for, and two reachable buttons. */
async function expectConsentPage(page: Page, width: number): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${origin}/oauth/consent/[A-Za-z0-9_-]+$`));
  await expect(page.getByRole("heading", { level: 1, name: "Connect an app" })).toBeVisible();
  // The name is the client's own words, shown as text: no element was made of it and no script ran.
  await expect(page.getByTestId("client-name")).toHaveText(HOSTILE_NAME);
  await expect(page.getByTestId("client-name").locator("img")).toHaveCount(0);
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  await expect(page.getByTestId("client-id")).toHaveText(clientId);
  await expect(page.getByTestId("redirect-target")).toHaveText(new URL(redirectUri).host);
  await expect(page.getByTestId("scopes").locator("[data-scope]")).toHaveCount(1);
  await expect(page.getByTestId("scopes").locator("[data-scope]")).toHaveAttribute("data-scope", "drops:read");
  await expect(page.getByTestId("scopes")).toContainText("Read your drops");

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `the consent page overflows by ${overflow}px at ${width}px`).toBeLessThanOrEqual(0);
  for (const name of ["Approve", "Deny"]) {
    const button = page.getByRole("button", { name });
    await expect(button).toBeVisible();
    await expect(button).toBeEnabled();
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    expect(box.x, `${name} starts inside the viewport`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends inside the viewport`).toBeLessThanOrEqual(width);
    expect(box.height, `${name} is a comfortable target`).toBeGreaterThanOrEqual(32);
  }
}

for (const width of [390, 1280]) {
  test(`at ${width}px a person signs in, approves one client and denies it the second time`, async ({ browser }) => {
    const login = `consent${width}`;
    const context = await browser.newContext({ viewport: { width, height: 844 } });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    // (a) The client opens the authorization URL; the person is not signed in yet.
    const first = authorizationRequest();
    await page.goto(first.url);
    await expect(page).toHaveURL(new RegExp(`/oauth/consent/`));
    const consentUrl = page.url();
    await page.getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await page.getByLabel("Username").fill(login);
    await page.getByRole("button", { name: "Sign in with a local username" }).click();
    await expect(page).toHaveURL(consentUrl);
    await expectConsentPage(page, width);
    await expect(page.getByText(`It asks to use your account ${login}`)).toBeVisible();

    const shots = join(process.cwd(), "test-results", "oauth-consent");
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `consent-${width}.png`), fullPage: true });

    await page.getByRole("button", { name: "Approve" }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    const approved = new URL(page.url()).searchParams;
    expect(approved.get("state")).toBe(first.state);
    expect(approved.get("iss")).toBe(origin);
    expect(approved.get("error")).toBeNull();
    const code = approved.get("code");
    expect(code).toBeTruthy();

    // The code buys tokens for /mcp with the verifier, once.
    const exchange = { grant_type: "authorization_code", code: code!, code_verifier: first.verifier, redirect_uri: redirectUri, client_id: clientId, resource: `${origin}/mcp` };
    const tokens = await tokenRequest(origin, exchange);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: "Bearer", scope: "drops:read", expires_in: 3600, access_token: expect.any(String), refresh_token: expect.any(String) });
    const listed = await fetch(`${origin}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.body.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(listed.status).toBe(200);
    expect((await tokenRequest(origin, exchange)).body).toMatchObject({ error: "invalid_grant" });

    // (b) A second authorization: already signed in, the consent page comes straight away; Deny.
    const second = authorizationRequest();
    await page.goto(second.url);
    await expectConsentPage(page, width);
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    const denied = new URL(page.url()).searchParams;
    expect(denied.get("error")).toBe("access_denied");
    expect(denied.get("state")).toBe(second.state);
    expect(denied.get("iss")).toBe(origin);
    expect(denied.get("code")).toBeNull();

    // Approving made one connection, named as the client named itself; denying made none.
    const token = await app.createToken(login);
    const connections = ((await app.api("/api/tokens", { token })).body as { kind: string; label: string; client_id?: string }[]).filter((item) => item.kind === "oauth");
    expect(connections).toEqual([expect.objectContaining({ label: HOSTILE_NAME, client_id: clientId })]);
    expect(dialogs, "no script of the client's name ran").toEqual([]);
    await context.close();
  });
}
