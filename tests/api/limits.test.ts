import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";
import { expect429 } from "../helpers/expect-retry";

describe("account and drop quotas", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { LIMIT_DROPS_PER_ACCOUNT: "2", LIMIT_VERSIONS_PER_DROP: "3" } });
  });
  afterAll(async () => app?.stop());

  it("refuses a drop beyond the account quota until one is deleted", async () => {
    const token = await app.createToken("hoarder");
    const first = await app.api("/api/drops", { method: "POST", token, body: { title: "1", html: "<p/>" } });
    await app.api("/api/drops", { method: "POST", token, body: { title: "2", html: "<p/>" } });
    const third = await app.api("/api/drops", { method: "POST", token, body: { title: "3", html: "<p/>" } });
    expect429(third, "quota_exceeded");
    expect(third.body.error.details.limit).toBe(2);
    expect((await app.api("/api/drops", { token })).body.pagination.total_items).toBe(2);

    await app.api(`/api/drops/${first.body.slug}`, { method: "DELETE", token });
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "3", html: "<p/>" } })).status).toBe(201);
  });

  it("refuses a version beyond the per-drop cap with 429 version_limit_reached", async () => {
    const token = await app.createToken("versioner");
    const drop = (await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p>1</p>" } })).body;
    for (const n of [2, 3]) {
      expect((await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: `<p>${n}</p>` } })).body.latest_version).toBe(n);
    }
    const capped = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<p>4</p>" } });
    expect429(capped, "version_limit_reached");
    expect((await app.api(`/api/drops/${drop.slug}/versions`, { token })).body).toHaveLength(3);

    await app.api(`/api/drops/${drop.slug}/v/1`, { method: "DELETE", token });
    expect((await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<p>4</p>" } })).body.latest_version).toBe(4);
  });
});

describe("with REDIS_URL, limits are counted in Redis", () => {
  let app: TestApp;
  const clock = createTestClock();
  beforeAll(async () => {
    app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, REDIS_URL: "redis://127.0.0.1:6379", LIMIT_WRITES_PER_MINUTE: "2" } });
  });
  afterAll(async () => app?.stop());

  it("refuses the third write of a minute and writes no counter to the database", async () => {
    const token = await app.createToken("redis-writer");
    clock.startWindow(MINUTE_MS);
    for (const title of ["a", "b"]) {
      expect((await app.api("/api/drops", { method: "POST", token, body: { title, html: "<p/>" } })).status).toBe(201);
    }
    const third = await app.api("/api/drops", { method: "POST", token, body: { title: "c", html: "<p/>" } });
    expect(expect429(third, "rate_limited")).toBeLessThanOrEqual(60);
    expect(await app.sql(`SELECT * FROM "RateLimitCounter"`)).toEqual([]);
    // The window is the app's clock's, as the database backend's is.
    clock.advance(MINUTE_MS);
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "d", html: "<p/>" } })).status).toBe(201);
  });

  it("counts a refused pattern save as a write, so invalid front matter cannot be sent without limit", async () => {
    const token = await app.createToken("pattern-writer");
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const nested = `---\nname: p\nx: ${"[".repeat(50)}${"]".repeat(50)}\n---\n# P\n`;
    for (let n = 0; n < 2; n++) expect((await app.api("/api/patterns/p", { method: "PUT", token, body: { markdown: nested } })).status).toBe(400);
    const valid = "---\nname: p\ndescription: A pattern.\ntriggers:\n  - p\n---\n# P\n";
    expect429(await app.api("/api/patterns/p", { method: "PUT", token, body: { markdown: valid } }), "rate_limited");
  });
});
