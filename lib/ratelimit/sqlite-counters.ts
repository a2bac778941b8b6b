import { join } from "node:path";
import Database from "better-sqlite3";
import { type RateLimitBackend, windowOf } from "./types";

const CLEANUP_EVERY_MS = 60_000;
export const SQLITE_COUNTERS_FILE = "ratelimit.db";

/**
 * The embedded limiter's counters on SQLite: a file of their own in DATA_DIR, shared by every instance
 * on it as the database is, and committed without syncing to disk. better-sqlite3 works on the main
 * thread, so the database's synchronous=FULL commit (an fsync of its journal) holds up every request
 * while it waits; counting a flood of refused writes that way stalled everyone (issue 28). A power cut
 * can cost a window's last few counts, and nothing else. Each statement stands alone, so another
 * instance holds the file's lock for a moment at most.
 */
export function createSqliteCounters(dataDir: string, now: () => number): RateLimitBackend {
  const connection = new Database(join(dataDir, SQLITE_COUNTERS_FILE), { timeout: 2_000 });
  connection.pragma("journal_mode = WAL");
  connection.pragma("synchronous = NORMAL");
  connection.exec(`CREATE TABLE IF NOT EXISTS counter (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires_at INTEGER NOT NULL) STRICT;
    CREATE INDEX IF NOT EXISTS counter_expires_at ON counter (expires_at)`);
  const count = connection.prepare<[string, number], { count: number }>(
    "INSERT INTO counter (key, count, expires_at) VALUES (?, 1, ?) ON CONFLICT (key) DO UPDATE SET count = count + 1 RETURNING count",
  );
  const read = connection.prepare<[string], { count: number }>("SELECT count FROM counter WHERE key = ?");
  const expire = connection.prepare<[number]>("DELETE FROM counter WHERE expires_at < ?");
  let lastCleanup = 0;

  return {
    async hit(key, limit, windowMs) {
      const at = now();
      const window = windowOf(at, windowMs);
      const counted = count.get(`${key}:${window.index}`, window.resetAt)!.count;
      if (at - lastCleanup > CLEANUP_EVERY_MS) {
        lastCleanup = at;
        expire.run(at);
      }
      return { success: counted <= limit, limit, remaining: Math.max(0, limit - counted), resetAt: window.resetAt };
    },

    async used(key, windowMs) {
      return read.get(`${key}:${windowOf(now(), windowMs).index}`)?.count ?? 0;
    },
  };
}
