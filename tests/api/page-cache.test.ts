// Pages from cache: a public drop's viewer page is rendered once per revision and served from memory,
// yet after every kind of write the next request, on this process or on another one sharing the
// database, shows the new state; pages built from the configuration alone are rendered once. View
// counts come from the viewer page's beacon.
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { chromiumLaunchOptions } from "../helpers/chromium";

let app: TestApp;
let other: TestApp;
let token: string;

beforeAll(async () => {
  app = await startApp();
  // A second process on the same database (and the same generated secrets), as behind a load balancer.
  other = await startApp({ env: { DATA_DIR: app.env.DATA_DIR!, ...(app.env.DATABASE_URL ? { DATABASE_URL: app.env.DATABASE_URL } : {}) } });
  token = await app.createToken("page-cache");
}, 180_000);
afterAll(async () => {
  await other?.stop();
  await app?.stop();
});

async function createDrop(body: Record<string, unknown> = {}): Promise<string> {
  const res = await app.api("/api/drops", { method: "POST", token, body: { title: "Cached drop", html: "<h1>v1</h1>", ...body } });
  expect(res.status, res.text).toBe(201);
  return (res.body as { slug: string }).slug;
}

async function write(path: string, method: string, body?: unknown): Promise<void> {
  const res = await app.api(path, { method, token, body });
  expect(res.status, res.text).toBeLessThan(300);
}

async function view(target: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${target.baseUrl}${path}`, { headers, redirect: "manual" });
  return { status: res.status, cache: res.headers.get("x-htmldrop-cache"), cacheControl: res.headers.get("cache-control"), etag: res.headers.get("etag"), html: await res.text() };
}

async function viewCount(slug: string): Promise<number> {
  return ((await app.api(`/api/drops/${slug}`, { token })).body as { view_count: number }).view_count;
}

/** View counts are written in batches after the response; waits until `expected` or gives up. */
async function settledViewCount(slug: string, expected: number): Promise<number> {
  let count = await viewCount(slug);
  for (let attempt = 0; attempt < 50 && count !== expected; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    count = await viewCount(slug);
  }
  return count;
}

describe("the viewer page from cache", () => {
  it("renders once, then serves the same bytes with shared-cache headers and revalidates by ETag", async () => {
    const slug = await createDrop({ title: "Once rendered" });
    const first = await view(app, `/p/${slug}`);
    expect(first).toMatchObject({ status: 200, cache: "miss" });
    expect(first.cacheControl).toMatch(/^public, .*s-maxage=\d+, stale-while-revalidate=\d+/);
    expect(first.html).toContain("Once rendered");
    const second = await view(app, `/p/${slug}`);
    expect(second).toMatchObject({ status: 200, cache: "hit", html: first.html, etag: first.etag });
    expect((await view(app, `/p/${slug}`, { "if-none-match": first.etag! })).status).toBe(304);
    const gzipped = await fetch(`${app.baseUrl}/p/${slug}`, { headers: { "accept-encoding": "gzip" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(await gzipped.text()).toBe(first.html);
    expect(gzipped.headers.get("vary")?.match(/accept-encoding/gi)).toHaveLength(1);
    expect(gzipped.headers.get("vary")).toMatch(/rsc/i);
    // A pinned version is cached on its own.
    expect(await view(app, `/p/${slug}?v=1`)).toMatchObject({ status: 200, cache: "miss" });
    expect(await view(app, `/p/${slug}?v=1`)).toMatchObject({ status: 200, cache: "hit" });
  });

  it("keeps the security headers of the rendered page and never stores a cookie", async () => {
    const slug = await createDrop();
    await view(app, `/p/${slug}`);
    const res = await fetch(`${app.baseUrl}/p/${slug}`);
    expect(res.headers.get("x-htmldrop-cache")).toBe("hit");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("shows every kind of write on the next request, on this process and on the other one", async () => {
    expect(other.baseUrl).not.toBe(app.baseUrl);
    const slug = await createDrop({ title: "Before" });
    const both = async (path: string) => Promise.all([view(app, path), view(other, path)]);
    // Warm both processes' caches.
    await both(`/p/${slug}`);
    for (const page of await both(`/p/${slug}`)) expect(page).toMatchObject({ cache: "hit" });

    await write(`/api/drops/${slug}`, "PATCH", { title: "After the patch" });
    for (const page of await both(`/p/${slug}`)) expect(page.html).toContain("After the patch");

    await write(`/api/drops/${slug}`, "PUT", { html: "<h1>v2</h1>" });
    for (const page of await both(`/p/${slug}`)) expect(page.html).toContain(`/p/${slug}/raw?v=2`);
    await both(`/p/${slug}?v=1`);

    await write(`/api/drops/${slug}/v/2`, "DELETE");
    for (const page of await both(`/p/${slug}`)) {
      expect(page.html).toContain(`/p/${slug}/raw?v=1`);
      expect(page.html).not.toContain(">v2");
    }
    for (const page of await both(`/p/${slug}?v=2`)) expect(page.status).toBe(404);

    await write(`/api/drops/${slug}/passcode`, "POST", { passcode: "sesame" });
    for (const path of [`/p/${slug}`, `/p/${slug}?v=1`]) {
      for (const page of await both(path)) {
        expect(page.html).toContain("This drop is locked");
        expect(page.html).not.toContain("After the patch");
        expect(page.cache).toBeNull();
        expect(page.cacheControl).toContain("no-store");
        expect(page.cacheControl).not.toContain("public");
      }
    }

    await write(`/api/drops/${slug}/passcode`, "POST", { passcode: "" });
    for (const page of await both(`/p/${slug}`)) expect(page.html).toContain("After the patch");

    await write(`/api/drops/${slug}`, "DELETE");
    for (const page of await both(`/p/${slug}`)) expect(page.status).toBe(404);
  });

  it("leaves a drop written on the other process fresh here too", async () => {
    const slug = await createDrop({ title: "Seen here first" });
    await view(app, `/p/${slug}`);
    const res = await other.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title: "Changed over there" } });
    expect(res.status).toBe(200);
    expect((await view(app, `/p/${slug}`)).html).toContain("Changed over there");
  });
});

describe("pages built from the configuration", () => {
  it.each(["/", "/docs", "/llms.txt", "/openapi.json", "/verify", "/.well-known/agent-card.json", "/.well-known/api-catalog", "/.well-known/oauth-protected-resource/mcp"])("%s is rendered once and then served from memory", async (path) => {
    // The other process has not served these yet in this file.
    const first = await view(other, path);
    const second = await view(other, path);
    expect(first).toMatchObject({ status: 200, cache: "miss" });
    expect(second).toMatchObject({ status: 200, cache: "hit", html: first.html });
    // Pages get a shared-cache policy; documents keep the one they already had.
    expect(second.cacheControl).toMatch(/^public, /);
    expect(second.cacheControl).toBe(first.cacheControl);
  });

  it("serves the pattern catalog's files from memory with their own headers, and leaves unknown names to Next", async () => {
    for (const path of ["/.well-known/patterns/index.json", "/.well-known/patterns/pr-explainer.md", "/.well-known/patterns/pr-explainer.template.html"]) {
      const first = await fetch(`${other.baseUrl}${path}`);
      const second = await fetch(`${other.baseUrl}${path}`, { headers: { "if-none-match": first.headers.get("etag") ?? "" } });
      expect(first.status, path).toBe(200);
      expect(first.headers.get("x-htmldrop-cache"), path).toBe("miss");
      expect(second.status, path).toBe(304);
      expect(second.headers.get("x-htmldrop-cache"), path).toBe("hit");
    }
    const template = await fetch(`${other.baseUrl}/.well-known/patterns/pr-explainer.template.html`);
    expect(template.headers.get("content-security-policy")).toContain("sandbox");
    const unknown = await fetch(`${other.baseUrl}/.well-known/patterns/no-such-pattern.md`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-htmldrop-cache")).toBeNull();
  });

  it("leaves the API catalog's HEAD, with its own Link, to Next", async () => {
    await view(other, "/.well-known/api-catalog");
    const head = await fetch(`${other.baseUrl}/.well-known/api-catalog`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-htmldrop-cache")).toBeNull();
    expect(head.headers.get("link")).toContain('rel="api-catalog"');
  });

  it("keeps /api/onboard's Markdown and JSON apart", async () => {
    const markdown = await fetch(`${other.baseUrl}/api/onboard`);
    const json = await fetch(`${other.baseUrl}/api/onboard`, { headers: { accept: "application/json" } });
    const jsonAgain = await fetch(`${other.baseUrl}/api/onboard`, { headers: { accept: "application/json" } });
    expect(markdown.headers.get("content-type")).toContain("text/markdown");
    expect(json.headers.get("content-type")).toContain("application/json");
    expect(jsonAgain.headers.get("x-htmldrop-cache")).toBe("hit");
    expect(await jsonAgain.json()).toHaveProperty("instructions");
    expect(jsonAgain.headers.get("vary")).toMatch(/accept\b/i);
  });
});

describe("view counts", () => {
  // Two clients: this machine over IPv4 and over IPv6 (each is counted once per drop, version and window).
  const beacon = (slug: string, headers: Record<string, string>, host = "127.0.0.1") => fetch(`http://${host}:${app.env.PORT}/p/${slug}/view`, { method: "POST", headers });
  const sameOrigin = { "sec-fetch-site": "same-origin" };

  it("count one view per client from the page's beacons, and no prefetch, bot or cross-site beacon", async () => {
    const slug = await createDrop();
    for (let i = 0; i < 3; i++) await view(app, `/p/${slug}`);
    expect(await settledViewCount(slug, 0), "page requests alone count nothing: the page reports itself").toBe(0);
    expect((await beacon(slug, { ...sameOrigin, "sec-purpose": "prefetch" })).status).toBe(204);
    expect((await beacon(slug, { ...sameOrigin, "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" })).status).toBe(204);
    expect((await beacon(slug, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await beacon(slug, { origin: "https://elsewhere.example" })).status).toBe(403);
    expect((await fetch(`${app.baseUrl}/p/${slug}/view`)).status).toBe(405);
    for (let i = 0; i < 4; i++) expect((await beacon(slug, sameOrigin, "[::1]")).status).toBe(204);
    expect(await settledViewCount(slug, 1)).toBe(1);
    // The skipped beacons above did not use up the IPv4 client's view.
    expect((await beacon(slug, sameOrigin)).status).toBe(204);
    expect(await settledViewCount(slug, 2)).toBe(2);
  });

  it("count a client once, whatever address headers it writes itself", async () => {
    const slug = await createDrop();
    for (let i = 0; i < 5; i++) expect((await beacon(slug, { ...sameOrigin, "x-htmldrop-client": `203.0.113.${i}`, "x-forwarded-for": `203.0.113.${i}` })).status).toBe(204);
    expect(await settledViewCount(slug, 1)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await viewCount(slug)).toBe(1);
  });

  it("count a locked drop's views only from a browser that unlocked it", async () => {
    const slug = await createDrop({ passcode: "sesame" });
    expect((await beacon(slug, sameOrigin)).status).toBe(403);
    const unlocked = await fetch(`${app.baseUrl}/p/${slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "sesame" }), redirect: "manual" });
    const cookie = unlocked.headers.get("set-cookie")!.split(";")[0]!;
    expect((await beacon(slug, { ...sameOrigin, cookie })).status).toBe(204);
    expect(await settledViewCount(slug, 1)).toBe(1);
    expect((await beacon("no-such-drop", sameOrigin)).status).toBe(404);
  });

  it("send a beacon from each page a real browser shows, cached or not, and count the browser once", async () => {
    const slug = await createDrop();
    const browser = await chromium.launch(chromiumLaunchOptions);
    try {
      const page = await browser.newPage();
      for (let i = 0; i < 3; i++) {
        const beaconSent = page.waitForRequest((request) => request.url().includes(`/p/${slug}/view?v=`), { timeout: 20_000 });
        await page.goto(`${app.baseUrl}/p/${slug}`);
        await beaconSent;
      }
    } finally {
      await browser.close();
    }
    expect(await settledViewCount(slug, 1)).toBe(1);
  });
});
