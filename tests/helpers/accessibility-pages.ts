// Every page htmldrop shows a person, checked by axe-core in real Chromium on a phone (390×844) and a
// desktop (1280×800), in light and in dark: the landing page, /docs, the onboarding guide as a page,
// /verify in each state, the sign-in, sign-out and sign-in failure pages, the viewer (public, with
// comments, locked, wrong passcode, 404, expired, and expired to its owner), the compare page with its
// marked changes, the served plain pages, the dashboard (empty and full, a drop on each of its tabs, a
// drop it does not have, its editor, tokens, patterns, teams, shared with me, account, comments), the
// OAuth consent page, an email's unsubscribe page (its link not valid) and the not-found page. One spec file per screen size
// (tests/e2e/accessibility-*.spec.ts), each with one server, one set of drops and one browser context,
// signed in as whoever the page needs. Screenshots of each page's first screens in both schemes are kept under
// test-results/accessibility/.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { COLOR_SCHEMES, expectNoAxeViolationsInBothSchemes, SCREENS, screenshotPath } from "./a11y";
import { freePort, startApp, type TestApp } from "./app";
import { createDrop, signInToDashboard, type CreatedDrop } from "./dashboard";
import { mcpAuthorizationRequest } from "./oauth";

const OWNER = "ada";
/** How many screens down a page's screenshot goes. */
const SCREENSHOT_SCREENS = 4;
const EMPTY_ACCOUNT = "newcomer";

let app: TestApp;
let origin: string;
let redirectServer: Server;
let redirectUri: string;
let clientId: string;
let report: CreatedDrop;
let discussed: CreatedDrop;
let locked: CreatedDrop;
let expired: CreatedDrop;

/** A guest's comment as the viewer page's script posts it. */
async function guestComment(slug: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${origin}/p/${slug}/comments`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ v: 1, name: "Grace", ...body }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function startDeviceFlow(): Promise<string> {
  const started = await app.api("/api/auth/start", { method: "POST", body: { label: "CLI on a laptop" } });
  expect(started.status, started.text).toBe(200);
  return (started.body as { verification_url: string }).verification_url;
}

/** An authorization request as an MCP client sends it. */
function authorizationUrl(): string {
  return mcpAuthorizationRequest(origin, clientId, redirectUri, "accessibility").url;
}

/**
 * Registers the checks of every page at one of SCREENS, with the server and the drops they look at: a
 * spec file per screen size, so that Playwright's workers check both at once.
 */
export function checkEveryPage(screenName: (typeof SCREENS)[number]["name"]): void {
  const screen = SCREENS.find((candidate) => candidate.name === screenName)!;
  test.beforeAll(async () => {
    redirectServer = createServer((_request, response) => response.end("back in the app"));
    await new Promise<void>((resolve) => redirectServer.listen(0, "127.0.0.1", resolve));
    redirectUri = `http://127.0.0.1:${(redirectServer.address() as AddressInfo).port}/callback`;
    const port = await freePort();
    // The consent form checks the Origin against PUBLIC_URL, so the browser uses exactly that origin.
    origin = `http://127.0.0.1:${port}`;
    app = await startApp({ env: { PORT: String(port), PUBLIC_URL: origin } });

    const token = await app.createToken(OWNER, "laptop");
    // Expires in a second: by the time a page asks for it, it answers 410.
    expired = await createDrop(app, token, { title: "Launch countdown", ttl_seconds: 1 });
    report = await createDrop(app, token, {
      title: "Quarterly report",
      description: "Revenue, costs and the plan for next quarter",
      context: "Figures from the finance export of 1 October.",
      metadata: { team: "finance", quarter: "q3" },
      html: "<!doctype html><title>Q3</title><h1>Quarterly report</h1><p>Revenue grew 12%.</p>",
    });
    const revised = await app.api(`/api/drops/${report.slug}`, { method: "PUT", token, body: { html: "<!doctype html><h1>Quarterly report</h1><p>Revenue grew 14%.</p>", context: "Corrected figures." } });
    expect(revised.status, revised.text).toBe(200);
    locked = await createDrop(app, token, { title: "Salary bands", passcode: "open sesame" });
    discussed = await createDrop(app, token, { title: "Design review", description: "Comments welcome", context: "Three layouts to compare.", metadata: { team: "design" } });
    const opened = await app.api(`/api/drops/${discussed.slug}`, { method: "PATCH", token, body: { comments: "anyone" } });
    expect(opened.status, opened.text).toBe(200);
    const question = await guestComment(discussed.slug, { body: "Could the chart start at zero?", quote: "Revenue grew 12%." });
    const answered = await app.api(`/api/drops/${discussed.slug}/comments`, { method: "POST", token, body: { body: "Good point, fixing it.", reply_to: question } });
    expect(answered.status, answered.text).toBe(201);
    const done = await guestComment(discussed.slug, { body: "Typo in the title." });
    const resolved = await app.api(`/api/drops/${discussed.slug}/comments/${done}`, { method: "PATCH", token, body: { resolved: true } });
    expect(resolved.status, resolved.text).toBe(200);
    await guestComment(discussed.slug, { body: "Which currency are these in?" });
    const second = await app.api(`/api/drops/${discussed.slug}`, { method: "PUT", token, body: { html: "<!doctype html><h1>Design review, take two</h1>", context: "Chart now starts at zero." } });
    expect(second.status, second.text).toBe(200);
    // On a passage of the version shown: highlighted in the drop, with the way to it in the panel.
    await guestComment(discussed.slug, { v: 2, body: "Is this the final name?", anchor: { exact: "take two", prefix: "Design review, " } });

    const registration = await fetch(`${origin}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Notes app", redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code"], response_types: ["code"] }),
    });
    expect(registration.status).toBe(201);
    clientId = ((await registration.json()) as { client_id: string }).client_id;
    await expect.poll(async () => (await fetch(expired.url)).status).toBe(410);

    // Sharing: the discussed drop's list holds a pending person and a team; another account made a team
    // the owner is in and shared a restricted drop with the owner.
    const made = await app.api("/api/teams", { method: "POST", token, body: { name: "Finance" } });
    expect(made.status, made.text).toBe(201);
    expect((await app.api(`/api/teams/${made.body.id}/members`, { method: "POST", token, body: { login: "grace" } })).status).toBe(201);
    for (const entry of [{ login: "grace", role: "viewer" }, { team_id: made.body.id, role: "editor" }]) {
      const added = await app.api(`/api/drops/${discussed.slug}/members`, { method: "POST", token, body: entry });
      expect(added.status, added.text).toBe(201);
    }
    const colleague = await app.createToken("bea", "laptop");
    const theirs = await app.api("/api/teams", { method: "POST", token: colleague, body: { name: "Design guild" } });
    expect((await app.api(`/api/teams/${theirs.body.id}/members`, { method: "POST", token: colleague, body: { login: OWNER } })).status).toBe(201);
    const sharedDrop = await createDrop(app, colleague, { title: "Hiring plan", access: "restricted" });
    expect((await app.api(`/api/drops/${sharedDrop.slug}/members`, { method: "POST", token: colleague, body: { login: OWNER, role: "viewer" } })).status).toBe(201);
  });

  test.afterAll(async () => {
    await app?.stop();
    await new Promise((resolve) => redirectServer?.close(resolve));
  });


    test.describe(`at ${screen.width}×${screen.height}`, () => {
      let context: BrowserContext | undefined;
      let page: Page;
      // Who the context is signed in as: each test states what its page needs, so a retried worker recovers.
      let signedInAs: string | null = null;

      /** The screen's one context, signed in as `login` (null: signed out). */
      async function session(browser: Browser, login: string | null): Promise<void> {
        if (!context) {
          context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
          page = await context.newPage();
        }
        if (signedInAs === login) return;
        await context.clearCookies();
        signedInAs = null;
        if (login) {
          await signInToDashboard(page, app, login);
          signedInAs = login;
        }
      }

      /**
       * A screenshot of the page's first screens in light and in dark (kept even when axe then fails), then
       * axe in both, on the whole page. The picture is taken through a viewport SCREENSHOT_SCREENS tall, not
       * of the full page: the guide and /docs are over 20,000 px tall, and Chromium took up to 13 s to draw one.
       */
      async function expectAccessible(name: string): Promise<void> {
        const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), screen.height * SCREENSHOT_SCREENS);
        await page.setViewportSize({ width: screen.width, height });
        for (const colorScheme of COLOR_SCHEMES) {
          await page.emulateMedia({ colorScheme });
          await page.screenshot({ path: screenshotPath("accessibility", `${screen.name}-${name}-${colorScheme}`) });
        }
        await page.setViewportSize({ width: screen.width, height: screen.height });
        await expectNoAxeViolationsInBothSchemes(page);
      }

      async function open(path: string, status = 200): Promise<void> {
        const response = await page.goto(path.startsWith("http") ? path : `${origin}${path}`);
        expect(response?.status(), path).toBe(status);
      }

      test.afterAll(async () => {
        await context?.close();
        context = undefined;
        signedInAs = null;
      });

      /** One page: open it as `login` (null: signed out), see it is the expected one, then axe and screenshots. */
      function pageTest(name: string, login: string | null, reach: () => Promise<void>): void {
        test(name, async ({ browser }) => {
          await session(browser, login);
          await reach();
          await expectAccessible(name);
        });
      }

      pageTest("landing", null, async () => {
        await open("/");
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      });
      pageTest("docs", null, () => open("/docs"));
      pageTest("onboarding-guide", null, async () => {
        await open("/api/onboard");
        await expect(page.getByRole("heading", { level: 2, name: /1\. Sign in once/ })).toBeVisible();
      });
      pageTest("not-found", null, async () => {
        await open("/no-such-page", 404);
        await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
      });

      // next-auth's own pages.
      pageTest("sign-in", null, async () => {
        await open("/api/auth/signin?callbackUrl=%2Fdashboard");
        await expect(page.getByLabel("Username")).toBeVisible();
      });
      pageTest("sign-in-error", null, () => open("/api/auth/signin?callbackUrl=%2Fdashboard&error=CredentialsSignin"));
      pageTest("sign-out", OWNER, () => open("/api/auth/signout"));
      pageTest("signed-out", null, async () => {
        await open("/signout");
        await expect(page.getByRole("heading", { name: "Signed out" })).toBeVisible();
      });
      pageTest("unsubscribe-invalid", null, async () => {
        await open("/unsubscribe?token=nobody.not-a-signature");
        await expect(page.getByText("This unsubscribe link is not valid")).toBeVisible();
      });
      pageTest("sign-in-failed", null, async () => {
        await open("/api/auth/error?error=Configuration");
        await expect(page.locator('[data-notice="sign-in-failed"]')).toBeVisible();
      });

      // /verify, from the code entry to an approved device.
      pageTest("verify", null, async () => {
        await open("/verify");
        await expect(page.getByLabel("Code shown by your agent")).toBeVisible();
      });
      pageTest("verify-wrong-code", null, async () => {
        await open("/verify?code=BCDF-GHJK");
        await expect(page.locator('[data-notice="invalidCode"]')).toBeVisible();
      });
      pageTest("verify-signed-out", null, async () => {
        await open(await startDeviceFlow());
        await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
      });
      pageTest("verify-signed-in", OWNER, async () => {
        await open(await startDeviceFlow());
        await expect(page.getByRole("button", { name: "Approve this device" })).toBeVisible();
      });
      pageTest("verify-denied", OWNER, async () => {
        await open(await startDeviceFlow());
        await page.getByRole("button", { name: "Deny" }).click();
        await expect(page.locator('[data-notice="denied"]')).toBeVisible();
      });

      // The viewer and the pages served in its place.
      pageTest("viewer", null, async () => {
        await open(report.url);
        await expect(page.getByRole("heading", { level: 1, name: "Quarterly report" })).toBeVisible();
        // On a phone the description and context fold behind "About this drop".
        await page.locator("details", { has: page.getByText("About this drop") }).evaluate((about) => ((about as HTMLDetailsElement).open = true));
        await page.getByText("Context for version 2").click();
      });
      pageTest("viewer-comments", null, async () => {
        await open(discussed.url);
        // Folded under its summary on a phone.
        const comments = page.locator("details#comments");
        if ((await comments.getAttribute("open")) === null) await comments.locator(":scope > summary").click();
        await expect(page.getByText("Could the chart start at zero?")).toBeVisible();
        await expect(page.getByRole("button", { name: "Show the passage" })).toBeVisible();
      });
      pageTest("viewer-locked", null, async () => {
        await open(locked.url);
        await expect(page.getByRole("heading", { name: "This drop is locked" })).toBeVisible();
      });
      pageTest("viewer-wrong-passcode", null, async () => {
        await open(locked.url);
        await page.getByLabel("Passcode").fill("wrong guess");
        await page.getByRole("button", { name: "Unlock" }).click();
        await expect(page.getByRole("alert").filter({ hasText: "passcode" })).toBeVisible();
      });
      pageTest("viewer-404", null, async () => {
        await open(`${report.url}?v=9`, 404);
        await expect(page.getByRole("heading", { name: "This version does not exist" })).toBeVisible();
        await expect(page.getByRole("link", { name: "See the latest version" })).toBeVisible();
      });
      pageTest("viewer-410", null, async () => {
        await open(expired.url, 410);
        await expect(page.getByRole("heading", { name: "This link has expired" })).toBeVisible();
      });
      pageTest("viewer-expired-owner", OWNER, async () => {
        await open(expired.url);
        await expect(page.getByRole("button", { name: "Change expiry" })).toBeVisible();
      });
      pageTest("raw-404", null, () => open("/p/nosuchdrop42/raw", 404));
      // Its controls appear once its script runs, and on a phone the toggle between the two versions.
      pageTest("compare", null, async () => {
        await open(`${report.url}/compare`);
        await expect(page.getByRole("table").locator("ins")).toHaveText(["14"]);
        await expect(page.getByText("Change 1 of 1")).toBeVisible();
      });

      // The dashboard.
      pageTest("dashboard-empty", EMPTY_ACCOUNT, async () => {
        await open("/dashboard");
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      });
      pageTest("dashboard", OWNER, async () => {
        await open("/dashboard");
        await expect(page.getByRole("link", { name: "Quarterly report" })).toBeVisible();
      });
      // The richest drop page, one tab at a time: versions with context, sharing, the comment thread,
      // views and settings; and a drop the dashboard does not have.
      pageTest("dashboard-drop", OWNER, async () => {
        await open(`/dashboard/drops/${discussed.slug}`);
        await expect(page.getByTestId("version-table")).toBeVisible();
      });
      pageTest("dashboard-drop-share", OWNER, async () => {
        await open(`/dashboard/drops/${discussed.slug}?tab=share`);
        await expect(page.getByRole("region", { name: "Expiry" })).toBeVisible();
      });
      pageTest("dashboard-drop-comments", OWNER, async () => {
        await open(`/dashboard/drops/${discussed.slug}?tab=comments`);
        await expect(page.getByText("Which currency are these in?")).toBeVisible();
      });
      pageTest("dashboard-drop-views", OWNER, async () => {
        await open(`/dashboard/drops/${discussed.slug}?tab=views`);
        await expect(page.getByTestId("views-summary")).toBeVisible();
      });
      pageTest("dashboard-drop-settings", OWNER, async () => {
        await open(`/dashboard/drops/${discussed.slug}?tab=settings`);
        await expect(page.getByRole("form", { name: "Edit details and tags" })).toBeVisible();
      });
      pageTest("dashboard-404", OWNER, async () => {
        await open("/dashboard/drops/nosuchdrop42", 404);
        await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
      });
      // The editor: CodeMirror and the preview, side by side on a desktop, as tabs on a phone.
      pageTest("dashboard-editor", OWNER, async () => {
        await open(`/dashboard/drops/${report.slug}/edit`);
        await expect(page.getByRole("textbox", { name: "HTML of version 2" })).toContainText("Revenue grew 14%.");
      });
      pageTest("dashboard-tokens", OWNER, () => open("/dashboard/tokens"));
      pageTest("dashboard-webhooks", OWNER, () => open("/dashboard/webhooks"));
      // The list of patterns and the form, filled from a built-in one.
      pageTest("dashboard-patterns", OWNER, async () => {
        await open("/dashboard/patterns?from=status-report");
        await expect(page.getByRole("heading", { name: "New pattern from status-report" })).toBeVisible();
      });
      pageTest("dashboard-teams", OWNER, async () => {
        await open("/dashboard/teams");
        await expect(page.getByRole("button", { name: "Leave team" })).toBeVisible();
      });
      pageTest("dashboard-shared", OWNER, async () => {
        await open("/dashboard/shared");
        await expect(page.getByText("Hiring plan")).toBeVisible();
      });
      pageTest("dashboard-account", OWNER, () => open("/dashboard/account"));
      pageTest("dashboard-comments", OWNER, async () => {
        await open("/dashboard/comments");
        await expect(page.getByText("Which currency are these in?")).toBeVisible();
      });

      // The OAuth consent page: signed out, signed in, and the pages that refuse.
      pageTest("consent-signed-out", null, async () => {
        await page.goto(authorizationUrl());
        await expect(page).toHaveURL(/\/oauth\/consent\//);
        await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
      });
      pageTest("consent", OWNER, async () => {
        await page.goto(authorizationUrl());
        await expect(page).toHaveURL(/\/oauth\/consent\//);
        await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
      });
      pageTest("oauth-error", null, () => open("/oauth/authorize?client_id=nobody&response_type=code", 400));
    });
}
