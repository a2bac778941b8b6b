import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createRedisBackend } from "@/lib/ratelimit/redis-backend";

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
});
