import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { createRedisBackend } from "@/lib/ratelimit/redis-backend";
import { startPrivateRedis, type PrivateRedis } from "../helpers/redis";

function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe("Redis rate-limit backend on a real Redis", () => {
  const backend = createRedisBackend({ kind: "redis", url: "redis://127.0.0.1:6379" });

  it("counts hits in a fixed window and reports when it opens again", async () => {
    const key = `test:${randomUUID()}`;
    const windowMs = 60_000;
    const results = await Promise.all([1, 2, 3, 4].map(() => backend.hit(key, 3, windowMs)));
    expect(results.filter((result) => result.success)).toHaveLength(3);
    const refused = results.find((result) => !result.success)!;
    expect(refused.remaining).toBe(0);
    expect(refused.resetAt).toBeGreaterThan(Date.now());
    expect(refused.resetAt).toBeLessThanOrEqual(Date.now() + windowMs);
    expect(await backend.used(key, windowMs)).toBe(4);
    expect(await backend.used(`test:${randomUUID()}`, windowMs)).toBe(0);
  });

  it("never refuses while Redis answers, however long this process is busy before writing or before reading", async () => {
    const key = `test:${randomUUID()}`;
    const burst = () => Array.from({ length: 50 }, () => backend.hit(key, 1_000, 60_000));
    /** Each check's outcome: a refusal's message, or "ok". */
    const outcomes = async (checks: Promise<unknown>[]) => (await Promise.allSettled(checks)).map((result) => (result.status === "rejected" ? String(result.reason) : "ok"));
    const allOk = Array<string>(50).fill("ok");

    // Busy before the commands are written: checks made while others are on their way to Redis, then
    // the rest of a burst's work, longer than the 300 ms deadline, before the answers are read.
    const onTheirWay = burst();
    await new Promise((resolve) => setImmediate(resolve));
    const madeMeanwhile = burst();
    busyFor(400);
    expect(await outcomes([...onTheirWay, ...madeMeanwhile])).toEqual([...allOk, ...allOk]);

    // Busy after they are written: the answers arrive meanwhile, and are read only after the deadline.
    const beforeReading = burst();
    await new Promise((resolve) => setImmediate(resolve));
    busyFor(400);
    expect(await outcomes(beforeReading)).toEqual(allOk);

    // A write's two checks, as a route makes them, with 10 ms of work after each: every second check
    // is made while the others' work keeps the event loop busy for half a second.
    const writes = Array.from({ length: 50 }, async () => {
      await backend.hit(`${key}:minute`, 1_000, 60_000);
      busyFor(10);
      await backend.hit(`${key}:day`, 1_000, 86_400_000);
    });
    expect(await outcomes(writes)).toEqual(allOk);
  });
});

describe("Redis rate-limit backend, Redis not answering", () => {
  let redis: PrivateRedis;
  let backend: ReturnType<typeof createRedisBackend>;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    backend = createRedisBackend({ kind: "redis", url: redis.url });
    await backend.ping!();
  });
  afterAll(() => redis?.stop());

  /** How long a check took to be refused with 503. */
  async function refusedAfter(check: () => Promise<unknown>): Promise<number> {
    const startedAt = performance.now();
    const error = await check().then(() => undefined, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    return performance.now() - startedAt;
  }

  it("refuses within a second while Redis is paused, a burst on a busy process included", async () => {
    const key = `test:${randomUUID()}`;
    expect((await backend.hit(key, 100, 60_000)).success).toBe(true);
    // Every client's commands wait, as with a stopped process or a blocking script.
    await redis.command("CLIENT", "PAUSE", "2000", "ALL");
    const resumed = new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await refusedAfter(() => backend.hit(key, 100, 60_000))).toBeLessThan(1_000);
    const burst = Array.from({ length: 20 }, () => refusedAfter(() => backend.hit(key, 100, 60_000)));
    busyFor(200);
    for (const took of await Promise.all(burst)) expect(took).toBeLessThan(1_000);
    await resumed;
    // The refused hits reached Redis once it resumed and were counted: the limit is spent sooner, never exceeded.
    expect((await backend.hit(key, 100, 60_000)).success).toBe(true);
  }, 10_000);

  it("refuses at once while Redis is down", async () => {
    await redis.stop();
    expect(await refusedAfter(() => backend.hit(`test:${randomUUID()}`, 10, 60_000))).toBeLessThan(1_000);
    expect(await refusedAfter(() => backend.used(`test:${randomUUID()}`, 60_000))).toBeLessThan(1_000);
    await expect(backend.ping!()).rejects.toThrow();
  });
});
