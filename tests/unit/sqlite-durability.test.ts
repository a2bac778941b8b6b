// An acknowledged write must survive a power loss, not only a killed process: the app's SQLite write
// connection (db(), what every service uses) runs synchronous=FULL in WAL mode, and its transactions
// wait for another process's write instead of failing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
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

it("queues a transaction behind another process's write instead of failing it with SQLITE_BUSY", async () => {
  const { DurableSqliteAdapter } = await import("@/lib/db/sqlite-adapter");
  const file = join(dataDir, "queue.db");
  const setup = new Database(file);
  setup.pragma("journal_mode = WAL");
  setup.exec("CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)");
  setup.close();

  const adapter = await new DurableSqliteAdapter(file, 10_000).connect();
  const tx = await adapter.startTransaction();
  const read = await tx.queryRaw({ sql: "SELECT n FROM counter", args: [], argTypes: [] });
  // Another process's connection (a thread has its own) writes while this transaction is open.
  const other = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const db = new (require("better-sqlite3"))(workerData.file, { timeout: 5000 });
     try { db.prepare("UPDATE counter SET n = n + 1").run(); parentPort.postMessage("written"); }
     catch (error) { parentPort.postMessage(String(error.code)); }`,
    { eval: true, workerData: { file } },
  );
  const otherResult = new Promise<string>((resolve) => other.once("message", resolve));
  await new Promise((resolve) => setTimeout(resolve, 300));
  await tx.executeRaw({ sql: "UPDATE counter SET n = ?", args: [Number(read.rows[0]![0]) + 1], argTypes: [{ scalarType: "int", arity: "scalar" }] });
  // Prisma's engine ends a transaction with its own COMMIT statement, then releases the adapter's lock.
  await tx.executeRaw({ sql: "COMMIT", args: [], argTypes: [] });
  await tx.commit();
  expect(await otherResult).toBe("written");
  await other.terminate();
  const final = await adapter.queryRaw({ sql: "SELECT n FROM counter", args: [], argTypes: [] });
  expect(Number(final.rows[0]![0])).toBe(2);
  await adapter.dispose();
});
