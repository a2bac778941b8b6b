import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A real Redis holds the counters; the test clock moves this process's time past the window.
const clockFile = join(mkdtempSync(join(tmpdir(), "spent-budgets-")), "clock");
const MINUTE_MS = 60_000;
const startOffset = MINUTE_MS - (Date.now() % MINUTE_MS) + 1_000;
const saved = { REDIS_URL: process.env.REDIS_URL, HTMLDROP_TEST_CLOCK_FILE: process.env.HTMLDROP_TEST_CLOCK_FILE };

describe("a budget seen spent", () => {
  let ratelimit: typeof import("@/lib/ratelimit");
  beforeAll(async () => {
    process.env.REDIS_URL = "redis://127.0.0.1:6379";
    process.env.HTMLDROP_TEST_CLOCK_FILE = clockFile;
    // One second into a fresh minute, so that no window ends between a test's hits.
    writeFileSync(clockFile, String(startOffset));
    ratelimit = await import("@/lib/ratelimit");
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  const refusal = async (check: Promise<void>) => check.then(() => "ok", (error: { code?: string }) => error.code ?? String(error));

  it("is refused from memory until its window resets, without another hit on the store", async () => {
    const identifier = randomUUID();
    const key = `deviceAuthApprovals:${identifier}`;
    const outcomes = [];
    for (let attempt = 0; attempt < 11; attempt++) outcomes.push(await refusal(ratelimit.assertRateLimit("deviceAuthApprovals", identifier)));
    expect(outcomes).toEqual([...Array<string>(10).fill("ok"), "rate_limited"]);
    const backend = ratelimit.rateLimitBackend();
    expect(await backend.used(key, MINUTE_MS)).toBe(11);

    for (let attempt = 0; attempt < 5; attempt++) expect(await refusal(ratelimit.assertRateLimit("deviceAuthApprovals", identifier))).toBe("rate_limited");
    expect(await backend.used(key, MINUTE_MS)).toBe(11);

    writeFileSync(clockFile, String(startOffset + MINUTE_MS));
    expect(await refusal(ratelimit.assertRateLimit("deviceAuthApprovals", identifier))).toBe("ok");
  });

  it("refuses a write whose minute is spent from memory too", async () => {
    const userId = randomUUID();
    const { writesPerMinute } = ratelimit.rateLimitPolicies();
    for (let write = 0; write < writesPerMinute.limit; write++) await ratelimit.assertWriteAllowed(userId);
    expect(await refusal(ratelimit.assertWriteBudgetLeft(userId))).toBe("rate_limited");
    // Counted nowhere else: a later refusal must not depend on reading the store again.
    const backend = ratelimit.rateLimitBackend();
    const used = await backend.used(`writesPerMinute:${userId}`, writesPerMinute.windowMs);
    expect(await refusal(ratelimit.assertWriteAllowed(userId))).toBe("rate_limited");
    expect(await backend.used(`writesPerMinute:${userId}`, writesPerMinute.windowMs)).toBe(used);
  });
});
