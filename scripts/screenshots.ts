// `npm run screenshots` (after `npm run build`): the README's screenshots, taken from a seeded instance.
// Starts the built service (`npm start`'s script, through tests/helpers/app.ts as the benchmarks do) on
// an embedded SQLite database in a temporary folder, gets an account a token as an agent does (next-auth's
// local sign-in, then the device-code flow), publishes an example report in three versions with tags and
// a few other drops and the data-report pattern's template (read from the public catalog) through the
// REST API, and captures the landing page, the viewer, the template in the viewer, the dashboard, the
// report's page on the dashboard, the compare view of its last two versions and the report in the drop
// editor at 1280×800 and the viewer on a 390×844 phone with Debian's Chromium into docs/screenshots/.
// Exits non-zero when any step or capture fails.
import { mkdirSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../tests/helpers/chromium";
import { startApp, type TestApp } from "../tests/helpers/app";
import { signInBrowserless, tokenThroughDeviceFlow } from "../tests/helpers/device-flow";
import { latencyReport, OTHER_DROPS, REPORT_CONTEXTS } from "./screenshots/example-drops";

const OUT_DIR = join(import.meta.dirname, "..", "docs", "screenshots");
const LOGIN = "ada";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
// Screenshots show the address a self-hoster sees first, when that port is free.
const PREFERRED_PORT = 3000;

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function expectStatus(app: TestApp, path: string, init: Parameters<TestApp["api"]>[1], status: number) {
  const result = await app.api(path, init);
  if (result.status !== status) throw new Error(`${init?.method ?? "GET"} ${path} answered ${result.status}, not ${status}: ${result.text}`);
  return result.body;
}

/** The example account and its drops; returns the report's slug and the session cookie to browse as it. */
async function seed(app: TestApp): Promise<{ slug: string; patternSlug: string; sessionCookie: string }> {
  const session = await signInBrowserless(app, LOGIN);
  const token = await tokenThroughDeviceFlow(app, session, "Claude Code on ada's laptop");
  for (const drop of OTHER_DROPS) await expectStatus(app, "/api/drops", { method: "POST", token, body: drop }, 201);
  const report = await expectStatus(
    app,
    "/api/drops",
    {
      method: "POST",
      token,
      body: {
        title: "Checkout latency, weekly",
        description: "p50 and p95 of checkout per week, with what changed",
        metadata: { team: "payments", kind: "weekly-report" },
        context: REPORT_CONTEXTS[0],
        html: latencyReport(6),
      },
    },
    201,
  );
  for (const [index, context] of REPORT_CONTEXTS.slice(1).entries()) {
    await expectStatus(app, `/api/drops/${report.slug}`, { method: "PUT", token, body: { html: latencyReport(7 + index), context } }, 200);
  }
  // A built-in pattern's template, as an agent would start from it: read from the public catalog.
  const template = await fetch(`${app.baseUrl}/.well-known/patterns/data-report.template.html`);
  if (template.status !== 200) throw new Error(`the data-report template answered ${template.status}`);
  const fromPattern = await expectStatus(app, "/api/drops", { method: "POST", token, body: { title: "Drop views: 13 weeks to 4 October 2026", html: await template.text() } }, 201);
  const sessionCookie = session.jar.get("next-auth.session-token");
  if (!sessionCookie) throw new Error("the sign-in left no session cookie");
  return { slug: report.slug as string, patternSlug: fromPattern.slug as string, sessionCookie };
}

type Capture = { name: string; path: string; viewport: typeof DESKTOP; signedIn?: boolean; ready: (page: Page) => Promise<unknown> };

async function capture(browser: Browser, app: TestApp, sessionCookie: string, shot: Capture): Promise<void> {
  const context = await browser.newContext({ viewport: shot.viewport, colorScheme: "light" });
  try {
    if (shot.signedIn) await context.addCookies([{ name: "next-auth.session-token", value: sessionCookie, url: app.baseUrl, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    const response = await page.goto(`${app.baseUrl}${shot.path}`);
    if (response?.status() !== 200) throw new Error(`${shot.path} answered ${response?.status()}`);
    await shot.ready(page);
    const file = join(OUT_DIR, `${shot.name}.png`);
    await page.screenshot({ path: file });
    console.log(`${shot.name}: ${file} (${Math.round(statSync(file).size / 1024)} KB)`);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  process.env.TEST_DB = "sqlite";
  delete process.env.TEST_SERVE;
  const port = (await portIsFree(PREFERRED_PORT)) ? PREFERRED_PORT : 0;
  const app = await startApp(port ? { env: { PORT: String(port) } } : {});
  let browser: Browser | undefined;
  try {
    const { slug, patternSlug, sessionCookie } = await seed(app);
    browser = await chromium.launch(chromiumLaunchOptions);
    mkdirSync(OUT_DIR, { recursive: true });
    const reportVisible = (page: Page) => page.frameLocator("iframe").getByRole("heading", { name: "Checkout latency, week 47" }).waitFor();
    const shots: Capture[] = [
      { name: "landing", path: "/", viewport: DESKTOP, ready: (page) => page.getByRole("heading", { level: 1 }).waitFor() },
      { name: "viewer", path: `/p/${slug}`, viewport: DESKTOP, ready: reportVisible },
      { name: "viewer-phone", path: `/p/${slug}`, viewport: PHONE, ready: reportVisible },
      { name: "pattern-data-report", path: `/p/${patternSlug}`, viewport: DESKTOP, ready: (page) => page.frameLocator("iframe").getByRole("heading", { level: 1 }).waitFor() },
      { name: "dashboard", path: "/dashboard", viewport: DESKTOP, signedIn: true, ready: (page) => page.getByRole("link", { name: "Checkout latency, weekly" }).waitFor() },
      {
        name: "drop-page",
        path: `/dashboard/drops/${slug}`,
        viewport: DESKTOP,
        signedIn: true,
        ready: (page) => page.frameLocator('iframe[title="Preview of v3"]').getByRole("heading", { name: "Checkout latency, week 47" }).waitFor(),
      },
      { name: "compare", path: `/p/${slug}/compare`, viewport: DESKTOP, ready: (page) => page.getByText(/^Change 1 of \d+$/).waitFor() },
      {
        name: "editor",
        path: `/dashboard/drops/${slug}/edit`,
        viewport: DESKTOP,
        signedIn: true,
        ready: (page) => page.frameLocator('iframe[title="Preview of your edit"]').getByRole("heading", { name: "Checkout latency, week 47" }).waitFor(),
      },
    ];
    for (const shot of shots) await capture(browser, app, sessionCookie, shot);
  } finally {
    await browser?.close();
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error("screenshots failed:", error);
  process.exit(1);
});
