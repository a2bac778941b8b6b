// The viewer in real Chromium: the drop in its sandboxed frame, context toggle, versions, the gate (and
// its owner, whom it does not stop), and a hostile drop that tries to escape its sandbox.
import { expect, test, type Page } from "@playwright/test";
import { hasHorizontalPageScroll } from "../helpers/a11y";
import { freePort, startApp, type TestApp } from "../helpers/app";
import { openSignedIn } from "../helpers/dashboard";

let app: TestApp;
let token: string;

test.beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("viewer-e2e");
});
test.afterAll(async () => app?.stop());

async function createDrop(body: Record<string, unknown>): Promise<{ slug: string; url: string }> {
  const res = await app.api("/api/drops", { method: "POST", token, body: { title: "E2E drop", html: "<h1>Version one</h1>", ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

function frame(page: Page) {
  return page.frameLocator("iframe");
}

test("shows the drop in a sandboxed frame with its context under a toggle", async ({ page }) => {
  const drop = await createDrop({ title: "Quarterly report", description: "Numbers for Q3", context: "Reasoning <b>not bold</b>" });
  await page.goto(drop.url);
  await expect(page).toHaveTitle(/Quarterly report/);
  await expect(page.getByRole("heading", { level: 1, name: "Quarterly report" })).toBeVisible();
  await expect(page.getByText("Numbers for Q3")).toBeVisible();
  await expect(frame(page).getByRole("heading", { name: "Version one" })).toBeVisible();
  await expect(page.locator("iframe")).toHaveAttribute("sandbox", "allow-scripts allow-forms allow-popups allow-modals");

  const context = page.getByText("Reasoning <b>not bold</b>", { exact: true });
  await expect(context).toBeHidden();
  await page.getByText("Context for version 1").click();
  await expect(context).toBeVisible();
});

test("fits a phone screen without sideways scrolling", async ({ browser }) => {
  const drop = await createDrop({ title: "A rather long title for a small phone screen that should wrap nicely", context: "x".repeat(400) });
  const phone = await browser.newPage({ viewport: { width: 375, height: 700 } });
  await phone.goto(drop.url);
  await expect(frame(phone).getByRole("heading", { name: "Version one" })).toBeVisible();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await phone.locator("iframe").boundingBox();
  expect(box!.width).toBeGreaterThan(300);
  expect(box!.height).toBeGreaterThan(300);
  await phone.close();
});

test("switches between versions and 404s an unknown one", async ({ page }) => {
  const drop = await createDrop({});
  const put = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<h1>Version two</h1>", context: "second thoughts" } });
  expect(put.status).toBe(200);

  await page.goto(drop.url);
  await expect(frame(page).getByRole("heading", { name: "Version two" })).toBeVisible();
  // Choosing a version opens it at once (tests/e2e/versions.spec.ts covers the form without JavaScript).
  await page.getByRole("combobox", { name: "Version" }).selectOption("1");
  await expect(page).toHaveURL(`${drop.url}?v=1`);
  await expect(frame(page).getByRole("heading", { name: "Version one" })).toBeVisible();
  await expect(page.getByText("Context for version")).toHaveCount(0);

  await page.goto(`${drop.url}?v=2`);
  await expect(page.getByText("Context for version 2")).toBeVisible();

  const missing = await page.goto(`${drop.url}?v=7`);
  expect(missing!.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This version does not exist" })).toBeVisible();
  expect((await page.goto(`${app.baseUrl}/p/doesnotexist42`))!.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Drop not found" })).toBeVisible();
});

test("gate: wrong passcode errors, right one shows the drop, a new passcode locks it again", async ({ page }) => {
  const drop = await createDrop({ title: "Secret plans", passcode: "open sesame" });
  await page.goto(drop.url);
  await expect(page.getByRole("heading", { name: "This drop is locked" })).toBeVisible();
  await expect(page).not.toHaveTitle(/Secret plans/);
  await expect(page.locator("iframe")).toHaveCount(0);

  await page.getByLabel("Passcode").fill("wrong guess");
  await page.getByRole("button", { name: "Unlock" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "passcode" })).toHaveText("That passcode is not right. Check it with whoever shared this link.");

  await page.getByLabel("Passcode").fill("open sesame");
  await page.getByRole("button", { name: "Unlock" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Secret plans" })).toBeVisible();
  await expect(frame(page).getByRole("heading", { name: "Version one" })).toBeVisible();
  const cookies = await page.context().cookies(drop.url);
  expect(cookies.find((cookie) => cookie.name === "hd_unlock")).toMatchObject({ httpOnly: true, sameSite: "Lax", path: `/p/${drop.slug}` });

  const changed = await app.api(`/api/drops/${drop.slug}/passcode`, { method: "POST", token, body: { passcode: "new secret" } });
  expect(changed.status).toBe(200);
  await page.reload();
  await expect(page.getByRole("heading", { name: "This drop is locked" })).toBeVisible();

  await page.getByLabel("Passcode").fill("new secret");
  await page.getByRole("button", { name: "Unlock" }).click();
  await expect(frame(page).getByRole("heading", { name: "Version one" })).toBeVisible();
  await page.getByRole("button", { name: "Lock again" }).click();
  await expect(page.getByRole("heading", { name: "This drop is locked" })).toBeVisible();
});

test("the owner, signed in, opens their locked drop without the passcode and manages it from the viewer", async ({ browser }) => {
  const drop = await createDrop({ title: "Salary bands", html: "<h1>Bands for 2027</h1>", passcode: "sesame" });
  const owner = await openSignedIn(browser, app, "viewer-e2e", "/dashboard", { width: 390, height: 844 });
  await owner.goto(drop.url);
  await expect(frame(owner).getByRole("heading", { name: "Bands for 2027" })).toBeVisible();
  expect(await hasHorizontalPageScroll(owner)).toBe(false);
  await owner.getByRole("link", { name: "Manage" }).click();
  await expect(owner).toHaveURL(`${app.baseUrl}/dashboard/drops/${drop.slug}`);
  await owner.context().close();

  const stranger = await openSignedIn(browser, app, "someone-else", "/dashboard", { width: 390, height: 844 });
  await stranger.goto(drop.url);
  await expect(stranger.getByRole("heading", { name: "This drop is locked" })).toBeVisible();
  await expect(stranger.getByRole("link", { name: "Manage" })).toHaveCount(0);
  await stranger.context().close();
});

test("a public drop's shared page is the same bytes for everyone, and only its owner's browser finds Manage on it", async ({ browser }) => {
  const drop = await createDrop({ title: "Open roadmap", html: "<h1>Roadmap</h1>" });
  const manageJson = `/dashboard/drops/${drop.slug}/manage.json`;
  const asked: string[] = [];
  const anonymous = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  anonymous.on("request", (request) => asked.push(new URL(request.url()).pathname));
  await anonymous.goto(drop.url);
  await expect(frame(anonymous).getByRole("heading", { name: "Roadmap" })).toBeVisible();
  // Without the signed-in hint nobody is asked: a stranger's page costs nothing more.
  await anonymous.waitForLoadState("networkidle");
  expect(asked).not.toContain(manageJson);
  await expect(anonymous.getByRole("link", { name: "Manage" })).toHaveCount(0);
  const shared = await (await anonymous.request.get(drop.url)).text();
  await anonymous.context().close();

  for (const screen of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    const owner = await openSignedIn(browser, app, "viewer-e2e", "/dashboard", screen);
    const hint = (await owner.context().cookies(app.baseUrl)).find((cookie) => cookie.name === "htmldrop-signed-in");
    expect(hint).toMatchObject({ value: "1", httpOnly: false, sameSite: "Lax", path: "/" });
    const page = await owner.request.get(drop.url);
    expect(page.headers()["set-cookie"]).toBeUndefined();
    expect(await page.text()).toBe(shared);
    await owner.goto(drop.url);
    await expect(frame(owner).getByRole("heading", { name: "Roadmap" })).toBeVisible();
    expect(await hasHorizontalPageScroll(owner)).toBe(false);
    const answer = await owner.request.get(`${app.baseUrl}${manageJson}`);
    expect(answer.headers()["cache-control"]).toBe("private, no-store");
    await owner.getByRole("link", { name: "Manage" }).click();
    await expect(owner).toHaveURL(`${app.baseUrl}/dashboard/drops/${drop.slug}`);
    await owner.context().close();
  }

  const stranger = await openSignedIn(browser, app, "someone-else", "/dashboard", { width: 1280, height: 800 });
  expect(await (await stranger.request.get(`${app.baseUrl}${manageJson}`)).json()).toEqual({ href: null });
  await stranger.goto(drop.url);
  await expect(frame(stranger).getByRole("heading", { name: "Roadmap" })).toBeVisible();
  await stranger.waitForLoadState("networkidle");
  await expect(stranger.getByRole("link", { name: "Manage" })).toHaveCount(0);
  // Signing out takes the hint with the session.
  await stranger.goto(`${app.baseUrl}/signout`);
  await stranger.getByRole("button", { name: "Sign out" }).click();
  await expect.poll(async () => (await stranger.context().cookies(app.baseUrl)).map((cookie) => cookie.name)).not.toContain("htmldrop-signed-in");
  await stranger.context().close();
});

test("the owner, signed in, finds their expired drop's viewer offering to extend it, and extends it", async ({ browser }) => {
  const drop = await createDrop({ title: "Launch countdown", html: "<h1>T minus ten</h1>", ttl_seconds: 1 });
  await expect.poll(async () => (await fetch(drop.url)).status).toBe(410);
  const owner = await openSignedIn(browser, app, "viewer-e2e", "/dashboard", { width: 390, height: 844 });
  await owner.goto(drop.url);
  await expect(owner.getByRole("heading", { level: 1, name: "“Launch countdown” has expired" })).toBeVisible();
  expect(await hasHorizontalPageScroll(owner)).toBe(false);
  await owner.getByRole("radio", { name: "In 7 days" }).check();
  await owner.getByRole("button", { name: "Change expiry" }).click();
  await expect(owner).toHaveURL(drop.url);
  await expect(frame(owner).getByRole("heading", { name: "T minus ten" })).toBeVisible();
  await owner.context().close();
  expect((await fetch(drop.url)).status).toBe(200);
});

test("gate works without JavaScript", async ({ browser }) => {
  const drop = await createDrop({ title: "No JS", passcode: "plain form" });
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(drop.url);
  await page.getByLabel("Passcode").fill("plain form");
  await page.getByRole("button", { name: "Unlock" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "No JS" })).toBeVisible();
  await context.close();
});

const HOSTILE = `<!DOCTYPE html><html><head><title>hostile</title></head><body><h1>Hostile drop</h1><script>
(async () => {
  const results = {};
  const attempt = async (name, fn) => {
    try { results[name] = { ok: true, value: String(await fn()) }; } catch (error) { results[name] = { ok: false, error: String(error && error.name) }; }
  };
  await attempt("readCookie", () => document.cookie);
  await attempt("writeCookie", () => { document.cookie = "hd_planted=1; path=/"; return document.cookie; });
  await attempt("localStorage", () => localStorage.getItem("x"));
  await attempt("readParent", () => parent.document.body.innerHTML.length);
  await attempt("writeParent", () => { parent.document.title = "pwned"; return parent.document.title; });
  await attempt("readParentLocation", () => parent.location.href);
  await attempt("fetchMe", async () => { const r = await fetch("/api/me", { credentials: "include" }); return r.status + " " + (await r.text()); });
  await attempt("fetchDashboard", async () => { const r = await fetch("/dashboard", { credentials: "include" }); return r.status + " " + (await r.text()).length; });
  parent.postMessage({ kind: "hostile-report", results }, "*");
  try { top.location.href = "https://example.invalid/pwned"; } catch (error) {}
  try { top.location.replace("https://example.invalid/pwned2"); } catch (error) {}
  parent.postMessage({ kind: "hostile-done" }, "*");
})();
</script></body></html>`;

for (const layout of ["same origin", "separate CONTENT_ORIGIN"] as const) {
  test(`a hostile drop cannot escape its sandbox (${layout})`, async ({ browser }) => {
    let target = app;
    let separate: TestApp | undefined;
    if (layout === "separate CONTENT_ORIGIN") {
      const port = await freePort();
      separate = await startApp({ env: { PORT: String(port), CONTENT_ORIGIN: `http://127.0.0.1:${port}` } });
      target = separate;
    }
    try {
      const hostileToken = await target.createToken("hostile-author");
      const created = await target.api("/api/drops", { method: "POST", token: hostileToken, body: { title: "Hostile", html: HOSTILE } });
      const viewerUrl: string = created.body.url;
      const context = await browser.newContext();
      await context.addCookies([{ name: "hd_sentinel", value: "viewer-secret", url: target.baseUrl }]);
      const page = await context.newPage();
      await page.addInitScript(() => {
        if (window === window.top) {
          (window as unknown as { reports: unknown[] }).reports = [];
          window.addEventListener("message", (event) => (window as unknown as { reports: unknown[] }).reports.push(event.data));
        }
      });
      const appRequests: { url: string; cookie: string | undefined }[] = [];
      page.on("request", async (request) => {
        const url = new URL(request.url());
        if (url.pathname === "/api/me" || url.pathname === "/dashboard") appRequests.push({ url: request.url(), cookie: (await request.allHeaders()).cookie });
      });

      await page.goto(viewerUrl);
      await expect(frame(page).getByRole("heading", { name: "Hostile drop" })).toBeVisible();
      await page.waitForFunction(() => (window as unknown as { reports: { kind: string }[] }).reports.some((report) => report.kind === "hostile-done"));
      const reports = await page.evaluate(() => (window as unknown as { reports: { kind: string; results?: Record<string, { ok: boolean; value?: string }> }[] }).reports);
      const results = reports.find((report) => report.kind === "hostile-report")!.results!;

      for (const name of ["readCookie", "writeCookie", "localStorage", "readParent", "writeParent", "readParentLocation", "fetchMe", "fetchDashboard"]) {
        expect(results[name], name).toBeDefined();
        expect(results[name]!.ok, `${name}: ${JSON.stringify(results[name])}`).toBe(false);
      }
      await page.waitForTimeout(500);
      // Checked from outside the frame: the top page stayed, its title and cookies are untouched.
      expect(page.url()).toBe(viewerUrl);
      await expect(page).toHaveTitle(/Hostile/);
      const cookies = await context.cookies(target.baseUrl);
      expect(cookies.map((cookie) => cookie.name).sort()).toEqual(["hd_sentinel"]);
      for (const request of appRequests) expect(request.cookie ?? "", request.url).not.toContain("viewer-secret");
      await context.close();
    } finally {
      await separate?.stop();
    }
  });
}

test("the raw page opened on its own is sandboxed too", async ({ page, context }) => {
  const drop = await createDrop({ html: "<h1 id=h>Raw</h1><script>try{document.getElementById('h').textContent=document.cookie}catch(e){document.getElementById('h').textContent='blocked:'+e.name}</script>" });
  await context.addCookies([{ name: "hd_sentinel", value: "viewer-secret", url: app.baseUrl }]);
  const response = await page.goto(`${drop.url}/raw`);
  expect(response!.headers()["content-security-policy"]).toBe("sandbox allow-scripts allow-forms allow-popups allow-modals");
  await expect(page.getByRole("heading")).toHaveText("blocked:SecurityError");
});
