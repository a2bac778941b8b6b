// The embedded rate limiter's counters, read where it keeps them: PostgreSQL's table, or SQLite's file
// of their own (lib/ratelimit/sqlite-counters.ts).
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SQLITE_COUNTERS_FILE } from "@/lib/ratelimit/sqlite-counters";
import { testDb, type TestApp } from "./app";

/** Each counter whose key starts with `keyPrefix` (`<policy>:<identifier>:<window>`), in key order. */
export async function embeddedCounters(app: TestApp, keyPrefix: string): Promise<{ key: string; count: number }[]> {
  const pattern = `${keyPrefix.replaceAll("'", "''")}%`;
  if (testDb() === "postgres") {
    const rows = await app.sql<{ key: string; count: number }>(`SELECT "key", "count" FROM "RateLimitCounter" WHERE "key" LIKE '${pattern}' ORDER BY "key"`);
    return rows.map((row) => ({ key: row.key, count: Number(row.count) }));
  }
  const path = join(app.env.DATA_DIR!, SQLITE_COUNTERS_FILE);
  // Made on the server's first counted hit.
  if (!existsSync(path)) return [];
  const file = new Database(path, { readonly: true });
  try {
    return file.prepare<[string], { key: string; count: number }>("SELECT key, count FROM counter WHERE key LIKE ? ORDER BY key").all(pattern);
  } finally {
    file.close();
  }
}
