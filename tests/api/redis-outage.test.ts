// With REDIS_URL, the limits fail closed: while Redis stalls or is down, writes, sign-ins and passcode
// attempts are refused with 503 service_unavailable and Retry-After, never let through uncounted and
// never answered 500; they work again once Redis is back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { expect503 } from "../helpers/expect-retry";
import { startPrivateRedis, type PrivateRedis } from "../helpers/redis";

describe("with REDIS_URL, a stalled or stopped Redis", () => {
  let redis: PrivateRedis;
  let app: TestApp;
  let token: string;
  let lockedSlug: string;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    app = await startApp({ env: { REDIS_URL: redis.url, LIMIT_WRITES_PER_MINUTE: "1000", LIMIT_WRITES_PER_DAY: "10000" } });
    token = await app.createToken("redis-outage");
    const locked = await app.api("/api/drops", { method: "POST", token, body: { title: "locked", html: "<p/>", passcode: "sesame" } });
    expect(locked.status).toBe(201);
    lockedSlug = locked.body.slug;
  });
  afterAll(async () => {
    await app?.stop();
    await redis?.stop();
  });

  const write = () => app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p/>" } });
  const unlock = () =>
    fetch(`${app.baseUrl}/p/${lockedSlug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "sesame" }), redirect: "manual", headers: { origin: app.baseUrl } });

  it("refuses writes, sign-ins and passcode attempts with 503 while Redis does not answer", async () => {
    // WRITE pauses every command that could change data, the limiter's scripts included.
    await redis.command("CLIENT", "PAUSE", "30000", "WRITE");
    try {
      expect503(await write());
      expect503(await app.api(`/api/drops/${lockedSlug}`, { method: "PATCH", token, body: { title: "u" } }));
      expect503(await app.api("/api/auth/start", { method: "POST", body: {} }));
      expect503(await app.api(`/api/auth/poll?token=${"x".repeat(43)}`));
      // The passcode is right, yet it is not checked: the gate says to try again.
      const attempt = await unlock();
      expect(attempt.status).toBe(303);
      expect(attempt.headers.get("location")).toBe(`/p/${lockedSlug}?error=unavailable`);
      expect(attempt.headers.get("set-cookie")).toBeNull();
      // A code look-up on the verification page says to try again instead of failing.
      const verify = await fetch(`${app.baseUrl}/verify?code=BCDF-GHJK`);
      expect(verify.status).toBe(200);
      expect(await verify.text()).toContain('data-notice="unavailable"');
      // Reads count against nothing and still work.
      expect((await app.api(`/api/drops/${lockedSlug}`, { token })).status).toBe(200);
    } finally {
      await redis.command("CLIENT", "UNPAUSE");
    }
    expect((await write()).status).toBe(201);
    expect((await unlock()).headers.get("set-cookie")).toMatch(/^hd_unlock=/);
  });

  it("answers 503, not 500, while Redis is down, and recovers when it is back", async () => {
    expect((await app.api("/api/health")).body).toEqual({ status: "ok", database: "ok", redis: "ok" });
    await redis.stop();
    expect503(await write());
    expect503(await app.api("/api/auth/start", { method: "POST", body: {} }));
    expect((await unlock()).headers.get("location")).toBe(`/p/${lockedSlug}?error=unavailable`);
    const unhealthy = await app.api("/api/health");
    expect503(unhealthy);
    expect(unhealthy.body.error.details).toMatchObject({ database: "ok", redis: "unavailable" });

    await redis.start();
    let status = 0;
    for (let attempt = 0; attempt < 60 && status !== 201; attempt++) {
      status = (await write()).status;
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(201);
    expect((await app.api("/api/auth/start", { method: "POST", body: {} })).status).toBe(200);
    expect((await app.api("/api/health")).status).toBe(200);
  });
});
