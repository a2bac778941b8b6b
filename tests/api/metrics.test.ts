// GET /metrics: Prometheus text from `npm start`, readable from this machine by default and with
// METRICS_TOKEN from anywhere; the counters follow what the service really did.
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, testDb, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";

/** An address of this machine that is not loopback (CI's machines have one, as this workplace's do). */
const OTHER_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((nic) => nic && nic.family === "IPv4" && !nic.internal)!.address;

/** One sample's value from Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("from this machine, without METRICS_TOKEN", () => {
  let app: TestApp;
  let token: string;
  const clock = createTestClock();

  beforeAll(async () => {
    app = await startApp({ env: { LIMIT_WRITES_PER_MINUTE: "2", HTMLDROP_TEST_CLOCK_FILE: clock.file } });
    token = await app.createToken("metrics");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const scrape = async () => {
    const res = await fetch(`${app.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    return res.text();
  };

  it("counts requests by route and status, raw cache lookups and rate-limit refusals", async () => {
    // The three writes below meet the limit of two in one window, whenever the test runs.
    clock.startWindow(MINUTE_MS);
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "m", html: "<p>metrics</p>" } });
    expect(created.status).toBe(201);
    const slug = created.body.slug as string;
    for (let i = 0; i < 3; i++) expect((await fetch(`${app.baseUrl}/p/${slug}/raw`)).status).toBe(200);
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "m2", html: "<p/>" } })).status).toBe(201);
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "m3", html: "<p/>" } })).status).toBe(429);

    const text = await scrape();
    expect(sample(text, 'htmldrop_http_requests_total{route="GET /p/{slug}/raw",status="200"}')).toBe(3);
    expect(sample(text, 'htmldrop_http_requests_total{route="POST /api/drops",status="201"}')).toBe(2);
    expect(sample(text, 'htmldrop_http_requests_total{route="POST /api/drops",status="429"}')).toBe(1);
    expect(sample(text, 'htmldrop_http_request_duration_seconds_count{route="GET /p/{slug}/raw",status="200"}')).toBe(3);
    expect(sample(text, 'htmldrop_http_request_duration_seconds_bucket{le="+Inf",route="GET /p/{slug}/raw",status="200"}')).toBe(3);
    // Buckets count cumulatively: three quick answers are all within the 10 s bucket.
    expect(sample(text, 'htmldrop_http_request_duration_seconds_bucket{le="10",route="GET /p/{slug}/raw",status="200"}')).toBe(3);
    expect(sample(text, 'htmldrop_http_request_duration_seconds_sum{route="GET /p/{slug}/raw",status="200"}')).toBeGreaterThan(0);
    // The first raw request built the document; the two after it came from memory.
    expect(sample(text, 'htmldrop_raw_cache_lookups_total{outcome="miss"}')).toBe(1);
    expect(sample(text, 'htmldrop_raw_cache_lookups_total{outcome="hit"}')).toBe(2);
    expect(sample(text, "htmldrop_raw_cache_bytes")).toBeGreaterThan(0);
    expect(sample(text, 'htmldrop_rate_limit_refusals_total{policy="writesPerMinute"}')).toBe(1);
    expect(sample(text, "htmldrop_view_counts_pending")).toBe(0);
    expect(text).toContain("htmldrop_process_resident_memory_bytes");
    // PostgreSQL's pools report their connections; SQLite has none.
    const prismaConnections = sample(text, 'htmldrop_db_pool_connections{pool="prisma",state="open"}');
    if (testDb() === "postgres") expect(prismaConnections).toBeGreaterThan(0);
    else expect(prismaConnections).toBeUndefined();
  });

  it("counts the renders handed to Next, each slot freed once its page is answered", async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${app.baseUrl}/signin`)).status).toBe(200);
    const text = await scrape();
    // The scrape is a render of its own, and the only one running.
    expect(sample(text, 'htmldrop_page_renders{state="running"}')).toBe(1);
    expect(sample(text, 'htmldrop_page_renders{state="waiting"}')).toBe(0);
  });

  it("refuses a client elsewhere, as a proxy reports it, and believes only the proxies TRUST_PROXY names", async () => {
    // The tests' loopback connections play the proxy; this machine's other address, a client reaching the port directly.
    const proxied = await startApp({ env: { TRUST_PROXY: "127.0.0.1,::1" } });
    try {
      const res = await fetch(`${proxied.baseUrl}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("forbidden");
      expect((await fetch(`http://127.0.0.1:${proxied.env.PORT}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(200);
      const direct = await fetch(`http://${OTHER_ADDRESS}:${proxied.env.PORT}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } });
      expect(direct.status).toBe(403);
    } finally {
      await proxied.stop();
    }
  });

  it("listens on LISTEN_ADDRESS alone, and still renders its cached pages from there", async () => {
    const loopback = await startApp({ env: { LISTEN_ADDRESS: "127.0.0.1" } });
    try {
      await expect(fetch(`http://${OTHER_ADDRESS}:${loopback.env.PORT}/api/health`)).rejects.toThrow();
      const home = await fetch(`http://127.0.0.1:${loopback.env.PORT}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get("x-htmldrop-cache")).toBe("miss");
    } finally {
      await loopback.stop();
    }
  });
});

describe("with METRICS_TOKEN", () => {
  let app: TestApp;
  const secret = "metrics-secret-0123456789";

  beforeAll(async () => {
    app = await startApp({ env: { METRICS_TOKEN: secret } });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("answers only a bearer of the token, even on this machine", async () => {
    const bare = await fetch(`${app.baseUrl}/metrics`);
    expect(bare.status).toBe(401);
    expect((await bare.json()).error.code).toBe("token_required");
    const wrong = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: "Bearer not-the-metrics-secret" } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.code).toBe("unauthorized");
    const right = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${secret}` } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("htmldrop_http_requests_total");
  });
});
