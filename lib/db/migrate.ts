import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import type { Config } from "@/lib/config";
import { postgresConnection } from "./connection";
import { SQLITE_SYNCHRONOUS } from "./sqlite-adapter";
import { analyzePostgresSchema, analyzeSqlite } from "./statistics";

/**
 * Applies prisma/migrations/<provider>/<name>/migration.sql in order, recording each in Prisma's own
 * `_prisma_migrations` table, so `prisma migrate deploy` can take over wherever its engine is available.
 */
type Migration = { name: string; sql: string; checksum: string };

const BOOKKEEPING_SQL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMP,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMP,
  "started_at" TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export function migrationsDir(provider: "sqlite" | "postgres"): string {
  return join(process.cwd(), "prisma", "migrations", provider);
}

function readMigrations(provider: "sqlite" | "postgres"): Migration[] {
  const dir = migrationsDir(provider);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

function migrateSqlite(file: string): string[] {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
    db.exec(BOOKKEEPING_SQL);
    const isApplied = db.prepare(`SELECT 1 FROM "_prisma_migrations" WHERE "migration_name" = ? AND "rolled_back_at" IS NULL`);
    const record = db.prepare(
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "applied_steps_count") VALUES (?, ?, CURRENT_TIMESTAMP, ?, 1)`,
    );
    const done: string[] = [];
    for (const migration of readMigrations("sqlite")) {
      // Checked under the write lock (immediate): an instance starting beside this one may have applied it
      // since this one began, and running it twice fails (a column added twice).
      const applied = db
        .transaction(() => {
          if (isApplied.get(migration.name)) return false;
          db.exec(migration.sql);
          record.run(randomUUID(), migration.checksum, migration.name);
          return true;
        })
        .immediate();
      if (applied) done.push(migration.name);
    }
    // A migration may rebuild or backfill a table.
    if (done.length > 0) analyzeSqlite(db);
    return done;
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string): Promise<string[]> {
  const { poolConfig, schema } = postgresConnection(url);
  const client = new pg.Client(poolConfig);
  await client.connect();
  try {
    // One migrator at a time across every instance that starts together.
    await client.query("SELECT pg_advisory_lock(724100111)");
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(BOOKKEEPING_SQL);
    const { rows } = await client.query<{ name: string }>(`SELECT "migration_name" AS name FROM "_prisma_migrations" WHERE "rolled_back_at" IS NULL`);
    const applied = new Set(rows.map((row) => row.name));
    const done: string[] = [];
    for (const migration of readMigrations("postgres")) {
      if (applied.has(migration.name)) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "applied_steps_count") VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      done.push(migration.name);
    }
    // A migration may rebuild or backfill a table.
    if (done.length > 0) await analyzePostgresSchema(client, schema);
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock(724100111)").catch(() => undefined);
    await client.end();
  }
}

/** Brings the configured database up to date; returns the names of the migrations it applied. */
export async function migrate(database: Config["database"]): Promise<string[]> {
  return database.provider === "sqlite" ? migrateSqlite(database.file) : migratePostgres(database.url);
}
