// The live version document, /p/<slug>/live.json, which open viewers poll: its headers for a shared
// cache and conditional requests, a new version at once at the origin, and nothing at all for a drop
// that is missing, expired, locked (until unlocked) or not open to the reader, never shared-cacheable then.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, type TestClock } from "../helpers/clock";
import { signInAs } from "../helpers/session";

let app: TestApp;
let clock: TestClock;
let token: string;

beforeAll(async () => {
  clock = createTestClock();
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  token = await app.createToken("live-owner");
});
afterAll(async () => app?.stop());

async function create(body: Record<string, unknown> = {}): Promise<string> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Live", html: "<p>one</p>", ...body } });
  expect(created.status, created.text).toBe(201);
  return created.body.slug;
}

const live = (slug: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${app.env.PORT}/p/${slug}/live.json`, { redirect: "manual", ...init });

/** What a missing drop answers: every refusal below must be exactly this. */
async function missingAnswer(): Promise<{ status: number; cacheControl: string | null; body: string }> {
  const response = await live("nosuchdrop000");
  return { status: response.status, cacheControl: response.headers.get("cache-control"), body: await response.text() };
}

async function expectNothingRevealed(response: Response): Promise<void> {
  expect({ status: response.status, cacheControl: response.headers.get("cache-control"), body: await response.text() }).toEqual(await missingAnswer());
  expect(response.headers.get("etag")).toBeNull();
}

describe("a public drop's live document", () => {
  it("is one small JSON answer for every reader, for shared caches, revalidated by ETag", async () => {
    const slug = await create();
    const first = await live(slug);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=2, stale-while-revalidate=3");
    expect(first.headers.get("x-robots-tag")).toBe("noindex");
    expect(await first.json()).toEqual({ latest_version: 1 });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);

    const unchanged = await live(slug, { headers: { "if-none-match": etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("cache-control")).toBe(first.headers.get("cache-control"));

    // A PUT shows on the next request: the origin reads the drop's row every time.
    expect((await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>two</p>" } })).status).toBe(200);
    const changed = await live(slug, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ latest_version: 2 });
    expect(changed.headers.get("etag")).not.toBe(etag);

    const head = await live(slug, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await live(slug, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await post.json()).error.code).toBe("invalid_arg");
    // One URL per drop, so that every reader shares one cache entry: any query names nothing.
    expect((await fetch(`http://127.0.0.1:${app.env.PORT}/p/${slug}/live.json?v=1`)).status).toBe(404);
  });

  it("answers 404 once the drop has expired", async () => {
    const slug = await create({ ttl_seconds: 60 });
    expect((await live(slug)).status).toBe(200);
    clock.advance(61_000);
    await expectNothingRevealed(await live(slug));
  });
});

describe("what the live document keeps to itself", () => {
  it("a locked drop's: nothing until unlocked, then its count for that browser only", async () => {
    const slug = await create({ passcode: "sesame" });
    expect((await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>two</p>" } })).status).toBe(200);
    await expectNothingRevealed(await live(slug));

    const unlocked = await fetch(`http://127.0.0.1:${app.env.PORT}/p/${slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "sesame" }), redirect: "manual" });
    const cookie = unlocked.headers.getSetCookie()[0]!.split(";")[0]!;
    const answer = await live(slug, { headers: { cookie } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    expect(await answer.json()).toEqual({ latest_version: 2 });
  });

  it("a drop for signed-in people or some people: nothing to anyone else, never shared-cacheable", async () => {
    const signedIn = await create({ access: "signed_in" });
    const restricted = await create({ access: "restricted" });
    await expectNothingRevealed(await live(signedIn));
    await expectNothingRevealed(await live(restricted));

    const session = await signInAs(app, "live-reader");
    const member = await live(signedIn, { headers: { cookie: session } });
    expect(member.status).toBe(200);
    expect(member.headers.get("cache-control")).toBe("private, no-store");
    // Signed in, but not on the list.
    await expectNothingRevealed(await live(restricted, { headers: { cookie: session } }));
  });
});
