import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";

/**
 * better-sqlite3 builds SQLite with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so a WAL database opens at
 * synchronous=NORMAL: a commit is safe from a killed process but not from a power loss or kernel
 * crash, which can take the last acknowledged writes with it. FULL syncs the WAL on every commit, so
 * an acknowledged write is on disk. (`npm run bench:writes` measures what it costs.)
 */
export const SQLITE_SYNCHRONOUS = "FULL";

/** Prisma's better-sqlite3 adapter, with every connection it opens set to synchronous=FULL first. */
export class DurableSqliteAdapter extends PrismaBetterSqlite3 {
  constructor(file: string) {
    super({ url: file, timeout: 10_000 }, { timestampFormat: "unixepoch-ms" });
  }

  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(`PRAGMA synchronous = ${SQLITE_SYNCHRONOUS}`);
    return adapter;
  }
}
