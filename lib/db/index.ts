import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { getConfig } from "@/lib/config";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { Prisma, PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { postgresConnection } from "./connection";
import { DurableSqliteAdapter } from "./sqlite-adapter";

/** Both generated clients share one model; the SQLite one's types describe either. */
export type Db = SqliteClient;
export type Tx = Prisma.TransactionClient;
export { Prisma };

function createClient(): Db {
  const { database } = getConfig();
  if (database.provider === "sqlite") {
    return new SqliteClient({ adapter: new DurableSqliteAdapter(database.file) });
  }
  const { poolConfig, schema } = postgresConnection(database.url);
  const pool = new pg.Pool({ ...poolConfig, max: 10 });
  // An idle connection that drops (a database restart) is replaced on the next query; unheard, its
  // error would surface as an uncaught exception.
  pool.on("error", (error) => console.error("htmldrop: database connection to PostgreSQL lost", error.message));
  (globalThis as DbHolder)[POOL_KEY] = pool;
  return new PostgresClient({ adapter: new PrismaPg(pool, { schema }) }) as unknown as Db;
}

// Next instantiates this module once per layer (route handlers, pages); they share one client.
const DB_KEY = Symbol.for("htmldrop.db");
const POOL_KEY = Symbol.for("htmldrop.db-pool");
type DbHolder = { [DB_KEY]?: Db; [POOL_KEY]?: pg.Pool };

/** For /metrics: Prisma's PostgreSQL pool, once the client exists (none on SQLite). */
export function databasePool(): pg.Pool | undefined {
  return (globalThis as DbHolder)[POOL_KEY];
}

export function db(): Db {
  const holder = globalThis as DbHolder;
  return (holder[DB_KEY] ??= createClient());
}

/** Prisma's error codes for the two conflicts the services translate. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}

/** Closes the shared client if this process ever opened one. */
export async function disconnectDb(): Promise<void> {
  const holder = globalThis as DbHolder;
  await holder[DB_KEY]?.$disconnect();
  // Prisma leaves a pool it was handed open; its idle connections would keep a command alive for 10 s.
  await holder[POOL_KEY]?.end();
  delete holder[DB_KEY];
  delete holder[POOL_KEY];
}
