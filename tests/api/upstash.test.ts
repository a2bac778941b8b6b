// Rate limits through the real @upstash/redis REST client (what runs on Vercel), against the
// machine's Redis behind Upstash's protocol (tests/helpers/upstash-bridge.ts): exact counts, the
// windows on the app's clock, the health check's PING, and failing closed when the REST endpoint goes away.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";
import { expect503 } from "../helpers/expect-retry";
import { bridgeCounters, startUpstashBridge, type UpstashBridge } from "../helpers/upstash-bridge";

let bridge: UpstashBridge;
let app: TestApp;
let token: string;
const clock = createTestClock();

beforeAll(async () => {
  bridge = await startUpstashBridge();
  app = await startApp({ env: { UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token, HTMLDROP_TEST_CLOCK_FILE: clock.file, LIMIT_WRITES_PER_MINUTE: "3" } });
  token = await app.createToken("upstash");
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await bridge?.stop();
});

describe("rate limits through Upstash's REST client", () => {
  it("admits exactly the limit, counted in Redis through the REST protocol", async () => {
    clock.startWindow(MINUTE_MS);
    const before = bridge.commands();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await app.api("/api/drops", { method: "POST", token, body: { title: `u${i}`, html: "<p/>" } })).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(bridge.commands()).toBeGreaterThan(before);
    // The window counts what it admitted: three writes, in the bridge's keyspace of the real Redis.
    expect(await bridgeCounters(bridge.token, "writesPerMinute:*")).toBe(3);
    expect((await app.api("/api/health")).body).toEqual({ status: "ok", database: "ok", redis: "ok" });
  });

  it("opens the next window when the app's clock reaches it", async () => {
    clock.advance(MINUTE_MS);
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "next minute", html: "<p/>" } })).status).toBe(201);
  });

  it("fails closed with 503 when the REST endpoint stops answering", async () => {
    await bridge.stop();
    expect503(await app.api("/api/drops", { method: "POST", token, body: { title: "down", html: "<p/>" } }));
    const health = await app.api("/api/health");
    expect503(health);
    expect(health.body.error.details).toMatchObject({ database: "ok", redis: "unavailable" });
  });
});
