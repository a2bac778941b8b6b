// "Open full page" never hands out a link that outlives the viewer's own unlock: /p/<slug>/full
// redirects to the raw page with a one-minute token only for a browser holding the unlock cookie, and
// the iframe's token ends with the cookie. Runs on SQLite, PostgreSQL and as Vercel serves it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";

let app: TestApp;
let token: string;
let origin: string;
let contentOrigin: string;
const clock = createTestClock();

beforeAll(async () => {
  const port = await freePort();
  // Drops on another origin, where the app's cookie is never sent: the reason a token exists at all.
  contentOrigin = `http://127.0.0.1:${port}`;
  app = await startApp({ env: { PORT: String(port), CONTENT_ORIGIN: contentOrigin, HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  origin = app.baseUrl;
  token = await app.createToken("full-page");
});
afterAll(async () => app?.stop());

async function createDrop(body: Record<string, unknown>): Promise<{ slug: string }> {
  const res = await app.api("/api/drops", { method: "POST", token, body: { title: "Full page", html: "<h1>the content</h1>", ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

function get(url: string, cookie?: string, method = "GET"): Promise<Response> {
  return fetch(url.startsWith("http") ? url : `${origin}${url}`, { method, redirect: "manual", headers: cookie ? { cookie } : {} });
}

/** The unlock cookie, as the browser sends it back. */
async function unlockCookie(slug: string, passcode: string): Promise<string> {
  const res = await fetch(`${origin}/p/${slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode }), redirect: "manual" });
  expect(res.status).toBe(303);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

// The server's clock runs this far ahead of the real one.
let clockOffset = 0;
function advance(ms: number): void {
  clockOffset += ms;
  clock.advance(ms);
}
const serverNow = () => Date.now() + clockOffset;

function expiryOf(proof: string): number {
  return Number(/(?:^|=)(\d+)\./.exec(proof)![1]);
}

/** The viewer header's "Open full page" link ("Full page" on a phone). */
const FULL_PAGE_LINK = /<a href="([^"]+)"[^>]*><span[^>]*>Open </;

function attribute(html: string, pattern: RegExp): string {
  return pattern.exec(html)![1]!.replaceAll("&amp;", "&");
}

describe("open full page", () => {
  it("links a locked drop to /full, which needs the cookie and hands out a token that lasts a minute", async () => {
    const drop = await createDrop({ passcode: "sesame" });
    const cookie = await unlockCookie(drop.slug, "sesame");
    const viewer = await (await get(`/p/${drop.slug}`, cookie)).text();
    const href = attribute(viewer, FULL_PAGE_LINK);
    expect(href).toBe(`/p/${drop.slug}/full?v=1`);

    // Forwarded without the cookie: the gate, no content and no token.
    const forwarded = await get(href);
    expect(forwarded.status).toBe(303);
    expect(forwarded.headers.get("location")).toBe(`/p/${drop.slug}?v=1`);
    expect(await (await get(forwarded.headers.get("location")!)).text()).toContain("This drop is locked");

    const opened = await get(href, cookie);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("cache-control")).toBe("private, no-store");
    const raw = opened.headers.get("location")!;
    expect(raw).toMatch(new RegExp(`^${contentOrigin}/p/${drop.slug}/raw\\?v=1&unlock=\\d+\\.[A-Za-z0-9_-]{43}$`));
    const before = serverNow();
    expect(expiryOf(new URL(raw).searchParams.get("unlock")!)).toBeLessThanOrEqual(before + MINUTE_MS + 1000);
    const served = await get(raw);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("<h1>the content</h1>");

    // A minute on, the raw link someone was handed opens nothing.
    advance(MINUTE_MS + 1000);
    expect((await get(raw)).status).toBe(403);
    // The reader's own browser just opens it again.
    expect((await get((await get(href, cookie)).headers.get("location")!)).status).toBe(200);
  });

  it("links a drop without a passcode straight to its raw page, and /full still opens it", async () => {
    const drop = await createDrop({});
    const viewer = await (await get(`/p/${drop.slug}`)).text();
    expect(attribute(viewer, FULL_PAGE_LINK)).toBe(`${contentOrigin}/p/${drop.slug}/raw?v=1`);
    const opened = await get(`/p/${drop.slug}/full?v=1`);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`${contentOrigin}/p/${drop.slug}/raw?v=1`);
    expect((await get(opened.headers.get("location")!)).status).toBe(200);
    expect((await get(`/p/${drop.slug}/full`)).headers.get("location")).toBe(`${contentOrigin}/p/${drop.slug}/raw`);
  });

  it("answers 404 for unknown drops and malformed versions, 405 for other methods, 410 once expired", async () => {
    const drop = await createDrop({ passcode: "sesame", ttl_seconds: 3600 });
    const cookie = await unlockCookie(drop.slug, "sesame");
    for (const path of ["/p/doesnotexist42/full", `/p/${drop.slug}/full?v=abc`, `/p/${drop.slug}/full?v=1&v=2`]) {
      expect((await get(path, cookie)).status, path).toBe(404);
    }
    expect((await get(`/p/${drop.slug}/full`, cookie, "POST")).status).toBe(405);
    advance(3600_000 + 1000);
    const expired = await get(`/p/${drop.slug}/full?v=1`, cookie);
    expect(expired.status).toBe(410);
    expect(expired.headers.get("location")).toBeNull();
    expect(await expired.text()).not.toContain("unlock=");
  });

  it("never gives the iframe a token that outlives the unlock cookie", async () => {
    const drop = await createDrop({ passcode: "sesame" });
    const cookie = await unlockCookie(drop.slug, "sesame");
    const cookieExpiry = expiryOf(cookie);
    // An hour before the unlock ends, the frame's token ends with it, not twelve hours later.
    advance(cookieExpiry - serverNow() - 60 * MINUTE_MS);
    const frameSrc = attribute(await (await get(`/p/${drop.slug}`, cookie)).text(), /<iframe[^>]*src="([^"]+)"/);
    expect(expiryOf(new URL(frameSrc).searchParams.get("unlock")!)).toBe(cookieExpiry);
    expect((await get(frameSrc)).status).toBe(200);
    advance(61 * MINUTE_MS);
    expect((await get(frameSrc)).status).toBe(403);
    expect((await get(`/p/${drop.slug}/full?v=1`, cookie)).headers.get("location")).toBe(`/p/${drop.slug}?v=1`);
  });
});
