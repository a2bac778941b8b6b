import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { Database } from "better-sqlite3";

/**
 * better-sqlite3 builds SQLite with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so a WAL database opens at
 * synchronous=NORMAL: a commit is safe from a killed process but not from a power loss or kernel
 * crash, which can take the last acknowledged writes with it. FULL syncs the WAL on every commit, so
 * an acknowledged write is on disk. (`npm run bench:writes` measures what it costs.)
 */
export const SQLITE_SYNCHRONOUS = "FULL";

/**
 * Prisma's better-sqlite3 adapter, with every connection it opens set to synchronous=FULL first and
 * its transactions begun IMMEDIATE.
 *
 * The adapter begins a transaction with a plain (deferred) BEGIN: it reads first and asks for the write
 * lock at its first write. When another process sharing the file (a second instance, `npm run admin`)
 * committed in between, SQLite cannot upgrade that stale snapshot and answers SQLITE_BUSY at once,
 * without waiting out the busy timeout, so concurrent PUTs from two instances failed with 503.
 * BEGIN IMMEDIATE takes the write lock first, waiting for it, so writers queue instead.
 */
export class DurableSqliteAdapter extends PrismaBetterSqlite3 {
  /** `busyTimeoutMs`: how long a statement waits for another process's write lock before SQLITE_BUSY. */
  constructor(file: string, busyTimeoutMs: number) {
    super({ url: file, timeout: busyTimeoutMs }, { timestampFormat: "unixepoch-ms" });
  }

  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(`PRAGMA synchronous = ${SQLITE_SYNCHRONOUS}`);
    beginTransactionsImmediate((adapter as unknown as { client: Database }).client);
    return adapter;
  }
}

/** The adapter prepares its BEGIN on the connection it owns; only that statement is rewritten. */
function beginTransactionsImmediate(connection: Database): void {
  const prepare = connection.prepare.bind(connection);
  connection.prepare = ((source: string) => prepare(source === "BEGIN" ? "BEGIN IMMEDIATE" : source)) as Database["prepare"];
}
