import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { type RateLimitBackend, windowOf } from "./types";

const CLEANUP_EVERY_MS = 60_000;
let lastCleanup = 0;

/**
 * The embedded limiter's counters on PostgreSQL, in the app's own database: correct across instances and
 * restarts. (On SQLite they have a file of their own: sqlite-counters.ts.)
 */
export const postgresCounters: RateLimitBackend = {
  async hit(key, limit, windowMs) {
    const at = now();
    const window = windowOf(at, windowMs);
    const rowKey = `${key}:${window.index}`;
    const expiresAt = new Date(window.resetAt);
    // One atomic statement: concurrent hits on any instance never lose a count.
    const rows = await db().$queryRaw<{ count: number | bigint }[]>`
      INSERT INTO "RateLimitCounter" ("key", "count", "expiresAt") VALUES (${rowKey}, 1, ${expiresAt})
      ON CONFLICT ("key") DO UPDATE SET "count" = "RateLimitCounter"."count" + 1
      RETURNING "count"`;
    const count = Number(rows[0]?.count ?? 1);
    if (at - lastCleanup > CLEANUP_EVERY_MS) {
      lastCleanup = at;
      await db().rateLimitCounter.deleteMany({ where: { expiresAt: { lt: new Date(at) } } });
    }
    return { success: count <= limit, limit, remaining: Math.max(0, limit - count), resetAt: window.resetAt };
  },

  async used(key, windowMs) {
    const window = windowOf(now(), windowMs);
    const row = await db().rateLimitCounter.findUnique({ where: { key: `${key}:${window.index}` } });
    return row?.count ?? 0;
  },
};
