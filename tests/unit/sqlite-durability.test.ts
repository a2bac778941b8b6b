// An acknowledged write must survive a power loss, not only a killed process: the app's SQLite write
// connection (db(), what every service uses) runs synchronous=FULL in WAL mode.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const dataDir = mkdtempSync(join(tmpdir(), "htmldrop-durable-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("opens the app's SQLite connection in WAL mode with synchronous=FULL", async () => {
  // Configured before anything reads the configuration, exactly as `npm start` would be.
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  const { getConfig } = await import("@/lib/config");
  const { migrate } = await import("@/lib/db/migrate");
  const { db, disconnectDb } = await import("@/lib/db");
  await migrate(getConfig().database);
  try {
    const [mode] = await db().$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
    const [sync] = await db().$queryRawUnsafe<{ synchronous: number | bigint }[]>("PRAGMA synchronous");
    expect(mode?.journal_mode).toBe("wal");
    // 2 is FULL; better-sqlite3's build would otherwise give a WAL database 1 (NORMAL).
    expect(Number(sync?.synchronous)).toBe(2);
  } finally {
    await disconnectDb();
  }
});
