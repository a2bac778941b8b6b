// The whole device-code sign-in in real Chromium, against a real OpenID Connect provider
// (oidc-provider with its built-in development login and consent pages) on loopback.
import type { Server } from "node:http";
import { expect as baseExpect, test, type Browser, type Page } from "@playwright/test";
import Provider from "oidc-provider";
import { hasHorizontalPageScroll, SCREENS } from "../helpers/a11y";
import { freePort, startApp, type TestApp } from "../helpers/app";

// The machine is shared: a server action, its redirect and a first OIDC discovery can take seconds under load.
const expect = baseExpect.configure({ timeout: 20_000 });

const CLIENT_ID = "htmldrop-e2e";
const CLIENT_SECRET = "e2e-client-secret-that-is-long-enough";
const IDP_NAME = "Test IdP";

let app: TestApp;
let idp: Server;

test.beforeAll(async () => {
  // The app discovers the provider lazily, at the first sign-in: start it first, then register its callback.
  const idpPort = await freePort();
  const issuer = `http://127.0.0.1:${idpPort}`;
  app = await startApp({
    env: { AUTH_OIDC_ISSUER: issuer, AUTH_OIDC_ID: CLIENT_ID, AUTH_OIDC_SECRET: CLIENT_SECRET, AUTH_OIDC_NAME: IDP_NAME, AUTH_DEV_LOGIN: "false" },
  });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${app.baseUrl}/api/auth/callback/oidc`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    // Any login is accepted by the development interactions; the login becomes the subject.
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, preferred_username: sub, name: `User ${sub}` }) }),
    claims: { openid: ["sub"], profile: ["preferred_username", "name"] },
    cookies: { keys: ["e2e-cookie-key"] },
  });
  idp = provider.listen(idpPort);
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => idp?.close(resolve));
});

async function startFlow(label: string) {
  const res = await app.api("/api/auth/start", { method: "POST", body: { label } });
  expect(res.status).toBe(200);
  return res.body as { code: string; verification_url: string; poll_token: string };
}

const poll = async (pollToken: string) => (await app.api(`/api/auth/poll?token=${encodeURIComponent(pollToken)}`)).body;

/** The human's side: open the link, sign in at the identity provider if needed, approve. */
async function approveInBrowser(page: Page, flow: { code: string; verification_url: string }, label: string, login: string) {
  await page.goto(flow.verification_url);
  await expect(page.getByTestId("code")).toHaveText(flow.code);
  await expect(page.getByTestId("label")).toHaveText(label);
  if (await page.getByRole("link", { name: "Sign in", exact: true }).isVisible()) {
    await expect(page.getByTestId("providers")).toHaveText(IDP_NAME);
    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.getByRole("button", { name: `Sign in with ${IDP_NAME}` }).click();
    // oidc-provider's development login, then its consent page.
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
  }
  await expect(page).toHaveURL(new URL(flow.verification_url).href);
  await expect(page.getByText(`Signed in as ${login} (oidc)`)).toBeVisible();
  await page.getByRole("button", { name: "Approve this device" }).click();
  await expect(page.locator('[data-notice="approved"]')).toContainText("Device approved. You can return to your agent");
}

async function inFreshBrowser<T>(browser: Browser, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

test("device-code sign-in through an OpenID Connect provider", async ({ browser }) => {
  const first = await startFlow("laptop");
  expect(await poll(first.poll_token)).toEqual({ status: "pending" });
  await inFreshBrowser(browser, (page) => approveInBrowser(page, first, "laptop", "alice"));

  const claimed = await poll(first.poll_token);
  expect(claimed.status).toBe("verified");
  expect(claimed.api_token).toMatch(/^hd_[0-9A-Za-z]{40}$/);
  expect(await poll(first.poll_token)).toEqual({ status: "claimed" });
  const me = await app.api("/api/me", { token: claimed.api_token });
  expect(me.status).toBe(200);
  expect(me.body.user_id).toBe(claimed.user_id);
  expect(me.body.token.label).toBe("laptop");

  // A second machine, a new browser: the human signs in again with the same identity.
  const second = await startFlow("desktop");
  await inFreshBrowser(browser, (page) => approveInBrowser(page, second, "desktop", "alice"));
  const again = await poll(second.poll_token);
  expect(again.status).toBe("verified");
  expect(again.user_id).toBe(claimed.user_id);
  expect(again.api_token).not.toBe(claimed.api_token);

  const tokens = await app.api("/api/tokens", { token: again.api_token });
  expect(tokens.body.map((token: { label: string }) => token.label).sort()).toEqual(["desktop", "laptop"]);

  // Revoking the first token leaves the second working.
  expect((await app.api(`/api/tokens/${me.body.token.id}`, { method: "DELETE", token: again.api_token })).status).toBe(204);
  expect((await app.api("/api/me", { token: claimed.api_token })).status).toBe(401);
  const still = await app.api("/api/me", { token: again.api_token });
  expect(still.status).toBe(200);
  expect(still.body.token.label).toBe("desktop");
});

test("a different identity gets a different account, and a used code cannot be approved again", async ({ browser }) => {
  const flow = await startFlow("shared screen");
  await inFreshBrowser(browser, (page) => approveInBrowser(page, flow, "shared screen", "bob"));
  const bob = await poll(flow.poll_token);
  expect(bob.status).toBe("verified");
  const bobTokens = (await app.api("/api/tokens", { token: bob.api_token })).body;
  expect(bobTokens.map((token: { label: string }) => token.label)).toEqual(["shared screen"]);

  await inFreshBrowser(browser, async (page) => {
    await page.goto(flow.verification_url);
    await expect(page.locator('[data-notice="alreadyUsed"]')).toContainText("This code has already been used");
    await expect(page.getByRole("button", { name: "Approve this device" })).toHaveCount(0);
  });
});

// axe and screenshots of /verify in each of these states: tests/helpers/accessibility-pages.ts.
test("/verify in each state, on a phone and a desktop; Deny stops the agent", async ({ browser }) => {
  await inFreshBrowser(browser, async (page) => {
    const check = async (name: string, width: number) => {
      expect(await hasHorizontalPageScroll(page), `${name} at ${width}`).toBe(false);
    };
    // Signs in once, at the first approval page.
    const first = await startFlow("reviewer");
    await page.goto(first.verification_url);
    await check("signed-out", 1280);
    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await page.getByRole("button", { name: `Sign in with ${IDP_NAME}` }).click();
    await page.locator('input[name="login"]').fill("dana");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(first.verification_url);

    for (const screen of SCREENS) {
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await page.goto(`${app.baseUrl}/verify`);
      await check("enter-code", screen.width);
      await page.getByLabel("Code shown by your agent").fill("BCDF-GHJX");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.locator('[data-notice="invalidCode"]')).toBeVisible();
      await expect(page.getByLabel("Code shown by your agent")).toHaveValue("BCDF-GHJX");
      await check("invalid-code", screen.width);

      const flow = await startFlow(`phone ${screen.width}`);
      await page.goto(flow.verification_url);
      await expect(page.getByTestId("grant")).toContainText(`labelled “phone ${screen.width}”`);
      // The countdown runs with JavaScript; the static time is what a browser without it shows.
      await expect(page.getByTestId("code-countdown")).toHaveText(/^(10:00|9:[0-5]\d)$/);
      await check("pending", screen.width);
      await page.getByRole("button", { name: "Deny" }).click();
      await expect(page.locator('[data-notice="denied"]')).toBeVisible();
      await expect(page.getByRole("button", { name: "Approve this device" })).toHaveCount(0);
      await check("denied", screen.width);
      expect(await poll(flow.poll_token)).toEqual({ status: "denied" });
    }
  });
});
