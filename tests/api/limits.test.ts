import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, DAY_MS, MINUTE_MS } from "../helpers/clock";

function expect429(res: { status: number; headers: Headers; body: any }, code: string) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe(code);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.body.error.details.retry_after_seconds).toBe(retryAfter);
  return retryAfter;
}

describe("write rate limits", () => {
  let app: TestApp;
  const clock = createTestClock();
  beforeAll(async () => {
    // One second into a fresh UTC day: no window boundary falls inside a step.
    clock.startWindow(DAY_MS);
    app = await startApp({ env: { LIMIT_WRITES_PER_MINUTE: "4", LIMIT_WRITES_PER_DAY: "7", HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  });
  afterAll(async () => app?.stop());

  it("counts every mutating call per account, per minute and per day", async () => {
    const token = await app.createToken("writer");
    const other = await app.createToken("bystander");
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p>1</p>" } });
    const slug = created.body.slug;
    const writes = [
      app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title: "u" } }),
      app.api(`/api/drops/${slug}/passcode`, { method: "POST", token, body: { passcode: "" } }),
      app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>2</p>" } }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(200);

    const retryAfter = expect429(await app.api(`/api/drops/${slug}`, { method: "DELETE", token }), "rate_limited");
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Reads are not writes, and another account has its own budget.
    expect((await app.api(`/api/drops/${slug}`, { token })).status).toBe(200);
    expect((await app.api("/api/drops", { method: "POST", token: other, body: { title: "t", html: "<p/>" } })).status).toBe(201);

    clock.advance(61_000);
    // A call the minute limit refused did not spend the day's budget: 4 of 7 are used.
    for (const title of ["v", "w", "x"]) {
      expect((await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title } })).status).toBe(200);
    }
    const daily = expect429(await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title: "x" } }), "daily_quota_exceeded");
    expect(daily).toBeGreaterThan(60);
    expect(daily).toBeLessThanOrEqual(86_400);

    clock.advance(DAY_MS);
    expect((await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title: "y" } })).status).toBe(200);
  });
});

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

describe("with REDIS_URL, limits are counted in Redis by @upstash/ratelimit", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { REDIS_URL: "redis://127.0.0.1:6379", LIMIT_WRITES_PER_MINUTE: "2" } });
  });
  afterAll(async () => app?.stop());

  it("refuses the third write of a minute and writes no counter to the database", async () => {
    const token = await app.createToken("redis-writer");
    // Align to a fresh minute so the window cannot close between the calls.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    for (const title of ["a", "b"]) {
      expect((await app.api("/api/drops", { method: "POST", token, body: { title, html: "<p/>" } })).status).toBe(201);
    }
    const third = await app.api("/api/drops", { method: "POST", token, body: { title: "c", html: "<p/>" } });
    expect(expect429(third, "rate_limited")).toBeLessThanOrEqual(60);
    expect(await app.sql(`SELECT * FROM "RateLimitCounter"`)).toEqual([]);
  });
});

/** Sends only the headers of a request that declares a large body, and waits for an answer that must not need the body. */
function requestWithoutBody(app: TestApp, method: string, path: string, token: string): Promise<{ status: number; body: any }> {
  const { port } = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      method,
      path,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": String(1_000_000) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path}: no answer while the body was withheld`));
    }, 15_000);
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.flushHeaders();
  });
}

describe("a spent write budget", () => {
  let app: TestApp;
  const clock = createTestClock();
  beforeAll(async () => {
    clock.startWindow(MINUTE_MS);
    app = await startApp({ env: { LIMIT_WRITES_PER_MINUTE: "2", HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  });
  afterAll(async () => app?.stop());

  it("refuses a write with 429 before reading its body, yet still replays an idempotent create", async () => {
    const token = await app.createToken("spent");
    const create = { title: "t", html: "<p/>" };
    const created = await app.api("/api/drops", { method: "POST", token, body: create, headers: { "idempotency-key": "first" } });
    expect(created.status).toBe(201);
    const slug = created.body.slug;
    expect((await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title: "u" } })).status).toBe(200);

    for (const [method, path] of [
      ["POST", "/api/drops"],
      ["PUT", `/api/drops/${slug}`],
      ["PATCH", `/api/drops/${slug}`],
      ["POST", `/api/drops/${slug}/passcode`],
    ] as const) {
      const res = await requestWithoutBody(app, method, path, token);
      expect(res.status, `${method} ${path}`).toBe(429);
      expect(res.body.error.code).toBe("rate_limited");
      expect(res.body.error.details.retry_after_seconds).toBeGreaterThan(0);
    }
    const replay = await app.api("/api/drops", { method: "POST", token, body: create, headers: { "idempotency-key": "first" } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.slug).toBe(slug);
  });
});

describe("passcode attempts", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => app?.stop());

  const attempt = (slug: string) => fetch(`${app.baseUrl}/p/${slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "guess-1234" }), redirect: "manual" });
  const counters = async () => (await app.sql<{ key: string }>(`SELECT "key" FROM "RateLimitCounter" WHERE "key" LIKE 'passcode%' ORDER BY "key"`)).map((row) => row.key);

  it("are counted only on drops that exist and have a passcode", async () => {
    const token = await app.createToken("gatekeeper");
    const open = await app.api("/api/drops", { method: "POST", token, body: { title: "open", html: "<p/>" } });
    const locked = await app.api("/api/drops", { method: "POST", token, body: { title: "locked", html: "<p/>", passcode: "sesame-1234" } });

    for (let i = 0; i < 40; i++) expect((await attempt(`nosuchdrop${String(i).padStart(3, "0")}`)).status).toBe(303);
    for (let i = 0; i < 5; i++) expect((await attempt(open.body.slug)).status).toBe(303);
    expect(await counters()).toEqual([]);

    expect((await attempt(locked.body.slug)).headers.get("location")).toBe(`/p/${locked.body.slug}?error=wrong`);
    const keys = await counters();
    expect(keys).toHaveLength(2);
    expect(keys.every((key) => key.includes(locked.body.slug))).toBe(true);
  });
});
