// The limits as the embedded default counts them, in the database (SQLite: the counters' own file) and
// on the test clock's time: exact minute and day windows, a spent budget refused before its body is read (npm start's front door),
// and passcode attempts keyed only for drops that have a passcode. Counting in Redis is tested in
// limits.test.ts, upstash.test.ts and multi-instance.test.ts.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { embeddedCounters } from "../helpers/counters";
import { expect429 } from "../helpers/expect-retry";
import { createTestClock, DAY_MS, MINUTE_MS } from "../helpers/clock";

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
  const counters = async () => (await embeddedCounters(app, "passcode")).map((row) => row.key);

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
