import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { getConfig } from "@/lib/config";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { Prisma, PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { postgresConnection } from "./connection";
import { closeBatchedReadsPool } from "./reads";
import { DurableSqliteAdapter } from "./sqlite-adapter";

/** Both generated clients share one model; the SQLite one's types describe either. */
export type Db = SqliteClient;
export type Tx = Prisma.TransactionClient;
export { Prisma };

/**
 * How long a writer waits for its turn: for a connection and for its transaction to begin (Prisma's
 * `maxWait`, 2 s by default), then for the locks its work takes (`timeout`, 5 s by default, counted from
 * the begin), and on SQLite for another process's write lock. Writers to one drop queue on its row, each
 * holding a connection, so under load the last of a burst waited past Prisma's defaults and failed with
 * 500 (P2028); past this wait they answer 503 with Retry-After (outage.ts).
 */
const WRITER_WAIT_MS = 10_000;

function createClient(): Db {
  const { database } = getConfig();
  if (database.provider === "sqlite") {
    return new SqliteClient({ adapter: new DurableSqliteAdapter(database.file, WRITER_WAIT_MS) });
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

/**
 * PostgreSQL ends one of two transactions that wait on each other's locks (a deadlock) so the other
 * can go on; Prisma reports it as P2034, or as the adapter's TransactionWriteConflict under a raw statement.
 */
export function isWriteConflict(error: unknown): boolean {
  const value = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } } | null;
  return value?.code === "P2034" || value?.meta?.driverAdapterError?.cause?.kind === "TransactionWriteConflict";
}

const TRANSACTION_ATTEMPTS = 3;

type CommitHook = () => void | Promise<void>;
const commitHooks = new WeakMap<Tx, CommitHook[]>();
const finalSteps = new WeakMap<Tx, ((tx: Tx) => Promise<void>)[]>();

/**
 * Runs `hook` once the transaction `tx` (opened by transaction()) commits, and never if it rolls back:
 * what other processes are told about a write must not reach them before the write is visible, or at all
 * when it is undone. transaction() returns once every hook has run (and settled, if it answers a promise).
 */
export function afterCommit(tx: Tx, hook: CommitHook): void {
  const hooks = commitHooks.get(tx);
  if (!hooks) throw new Error("afterCommit needs a transaction opened by transaction()");
  hooks.push(hook);
}

/**
 * Runs `step` at the end of the transaction `tx` (opened by transaction()), after its work and before it
 * commits: the outbox's rows go last, so the lock they take is held only for the commit (lib/events).
 */
export function beforeCommit(tx: Tx, step: (tx: Tx) => Promise<void>): void {
  const steps = finalSteps.get(tx);
  if (!steps) throw new Error("beforeCommit needs a transaction opened by transaction()");
  steps.push(step);
}

/**
 * Runs `work` in one transaction, and again (up to three times in all) when the database ended it to
 * break a deadlock: nothing of it was kept, so the retry is the request as first sent. `work` must
 * touch nothing but `tx`; what must wait for the commit goes to afterCommit.
 */
export async function transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    // Each attempt keeps its own hooks: those of an attempt the database ended are dropped with it.
    const hooks: CommitHook[] = [];
    try {
      const result = await db().$transaction(async (tx) => {
        commitHooks.set(tx, hooks);
        const steps: ((tx: Tx) => Promise<void>)[] = [];
        finalSteps.set(tx, steps);
        const value = await work(tx);
        for (let step = steps.shift(); step; step = steps.shift()) await step(tx);
        return value;
      }, { maxWait: WRITER_WAIT_MS, timeout: WRITER_WAIT_MS });
      for (const hook of hooks) await hook();
      return result;
    } catch (error) {
      if (!isWriteConflict(error) || attempt === TRANSACTION_ATTEMPTS) throw error;
      // Apart by a random few milliseconds, so the two do not meet again in the same order.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** Closes the shared client if this process ever opened one. */
export async function disconnectDb(): Promise<void> {
  const holder = globalThis as DbHolder;
  await holder[DB_KEY]?.$disconnect();
  // Prisma leaves a pool it was handed open; its idle connections would keep a command alive for 10 s.
  await holder[POOL_KEY]?.end();
  delete holder[DB_KEY];
  delete holder[POOL_KEY];
  await closeBatchedReadsPool();
}
