import { PrismaPg } from "@prisma/adapter-pg";
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
  return new PostgresClient({ adapter: new PrismaPg({ ...poolConfig, max: 10 }, { schema }) }) as unknown as Db;
}

// The custom server and Next's bundle load this module separately in one process; they share one client.
const DB_KEY = Symbol.for("htmldrop.db");
type DbHolder = { [DB_KEY]?: Db };

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
  await (globalThis as DbHolder)[DB_KEY]?.$disconnect();
}
