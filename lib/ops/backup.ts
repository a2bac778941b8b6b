// `npm run backup` and `npm run restore`: one directory holds the database (SQLite's online backup, or
// pg_dump of the schema htmldrop uses) and, when the server generated its secrets rather than being
// given them, DATA_DIR/secrets.json, without which the stored tokens are unusable.
import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import type { Config } from "@/lib/config";
import { postgresConnection } from "@/lib/db/connection";
import { analyzePostgresSchema, analyzeSqlite } from "@/lib/db/statistics";

const MANIFEST = "backup.json";
const SQLITE_FILE = "htmldrop.db";
const POSTGRES_FILE = "htmldrop.pgdump";
const SECRETS_FILE = "secrets.json";

type Manifest = { format: 1; created_at: string; provider: "sqlite" | "postgres"; schema?: string; secrets: boolean };

export class BackupError extends Error {}

async function run(program: string, args: string[]): Promise<void> {
  try {
    await promisify(execFile)(program, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { code, stderr } = error as { code?: string; stderr?: string };
    if (code === "ENOENT") throw new BackupError(`${program} is not installed: install the PostgreSQL client tools of your server's major version.`);
    throw new BackupError(`${program} failed: ${(stderr ?? String(error)).trim()}`);
  }
}

/** Writes a backup of the running (or stopped) service into `dir`, which must not exist or be empty. */
export async function createBackup(config: Config, dir: string): Promise<Manifest> {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new BackupError(`${dir} is not empty: give a new directory for each backup.`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { database } = config;
  let schema: string | undefined;
  if (database.provider === "sqlite") {
    if (!existsSync(database.file)) throw new BackupError(`No database at ${database.file}: check DATA_DIR.`);
    // SQLite's online backup: a consistent copy while the server keeps writing.
    const source = new Database(database.file, { readonly: true, fileMustExist: true });
    try {
      await source.backup(join(dir, SQLITE_FILE));
    } finally {
      source.close();
    }
  } else {
    // pg_dump takes a plain connection string; the schema goes in its own option.
    const connection = postgresConnection(database.url);
    schema = connection.schema;
    await run("pg_dump", ["--format=custom", "--no-owner", `--schema=${schema}`, `--file=${join(dir, POSTGRES_FILE)}`, connection.poolConfig.connectionString!]);
  }
  const secretsFile = join(config.dataDir, SECRETS_FILE);
  const secrets = !config.secretsFromEnvironment && existsSync(secretsFile);
  if (secrets) copyFileSync(secretsFile, join(dir, SECRETS_FILE));
  const manifest: Manifest = { format: 1, created_at: new Date().toISOString(), provider: database.provider, ...(schema ? { schema } : {}), secrets };
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const file of readdirSync(dir)) chmodSync(join(dir, file), 0o600);
  return manifest;
}

function readManifest(dir: string): Manifest {
  const file = join(dir, MANIFEST);
  if (!existsSync(file)) throw new BackupError(`${dir} holds no ${MANIFEST}: give a directory written by \`npm run backup\`.`);
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
  if (manifest.format !== 1) throw new BackupError(`${file}: unknown backup format ${String(manifest.format)}.`);
  return manifest;
}

/**
 * Replaces the configured database with the backup's, and DATA_DIR/secrets.json with the backup's
 * unless the operator sets both secrets. Run it with the server stopped: a running one keeps serving
 * what it cached. Returns what it restored, for the command to report.
 */
export async function restoreBackup(config: Config, dir: string): Promise<string[]> {
  const manifest = readManifest(dir);
  const { database } = config;
  if (manifest.provider !== database.provider) {
    throw new BackupError(`This backup is of a ${manifest.provider} database, and this configuration uses ${database.provider}.`);
  }
  const restored: string[] = [];
  if (database.provider === "sqlite") {
    mkdirSync(config.dataDir, { recursive: true });
    // The backup API writes through SQLite's own locking and journal, so no stale WAL outlives it.
    const source = new Database(join(dir, SQLITE_FILE), { readonly: true, fileMustExist: true });
    try {
      await source.backup(database.file);
    } finally {
      source.close();
    }
    const restoredDb = new Database(database.file);
    try {
      analyzeSqlite(restoredDb);
    } finally {
      restoredDb.close();
    }
    restored.push(`database ${database.file}`);
  } else {
    const { schema, poolConfig } = postgresConnection(database.url);
    if (manifest.schema !== schema) {
      throw new BackupError(`This backup is of schema "${manifest.schema}" and DATABASE_URL names "${schema}": restore into the schema it came from.`);
    }
    await run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--single-transaction", `--dbname=${poolConfig.connectionString!}`, join(dir, POSTGRES_FILE)]);
    // pg_restore recreates the tables without statistics (its manual says to ANALYZE after it).
    const client = new pg.Client(poolConfig);
    await client.connect();
    try {
      await analyzePostgresSchema(client, schema);
    } finally {
      await client.end();
    }
    restored.push(`schema "${schema}"`);
  }
  if (manifest.secrets) {
    if (config.secretsFromEnvironment) {
      restored.push("not secrets.json: AUTH_SECRET and TOKEN_PEPPER are set, so tokens work only if they are the backup's");
    } else {
      mkdirSync(config.dataDir, { recursive: true });
      copyFileSync(join(dir, SECRETS_FILE), join(config.dataDir, SECRETS_FILE));
      chmodSync(join(config.dataDir, SECRETS_FILE), 0o600);
      restored.push(`secrets ${join(config.dataDir, SECRETS_FILE)}`);
    }
  }
  return restored;
}
