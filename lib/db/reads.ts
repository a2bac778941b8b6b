// The hottest reads, beside Prisma: the serving lookups (lib/serving/lookup.ts) and an authenticated
// read's token and drop. Prisma's client costs about a millisecond of CPU per query, more than the rest
// of such a request (issue 35); a prepared statement on SQLite costs microseconds. Every read still goes
// to the database, so a write (a revoked token, a changed drop) shows on the next request on every instance.
import Database from "better-sqlite3";
import type pg from "pg";
import { getConfig } from "@/lib/config";
import { LookupCoalescer } from "./coalesce";
import { databasePool, db } from "./index";

/**
 * Batches of coalesced reads in flight at once on PostgreSQL: two measured best (`TEST_DB=postgres npm
 * run bench`, 2 cores); more spend the CPU on round trips that coalescing would have shared.
 */
export const PG_BATCHES_IN_FLIGHT = 2;

type ReaderHolder = { [READER_KEY]?: { connection: Database.Database; statements: Map<string, Database.Statement> } };
const READER_KEY = Symbol.for("htmldrop.sqlite-reader");

/**
 * One read-only connection per process (WAL: reads never wait on writes, and see every committed one),
 * shared by Next's layers through globalThis.
 */
function sqliteReader(file: string) {
  const holder = globalThis as ReaderHolder;
  return (holder[READER_KEY] ??= { connection: new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 }), statements: new Map() });
}

/** A statement on the read-only SQLite connection, prepared once per process. */
export function sqliteStatement<P extends unknown[], R>(file: string, sql: string): Database.Statement<P, R> {
  const reader = sqliteReader(file);
  let statement = reader.statements.get(sql);
  if (!statement) {
    statement = reader.connection.prepare(sql);
    reader.statements.set(sql, statement);
  }
  return statement as Database.Statement<P, R>;
}

/** The same read in each dialect; `name` prepares it once per PostgreSQL connection. */
export type HotRead = { name: string; sqlite: string; postgres: string };

/** A hot read with its parameters' values. */
export type HotReadCall = { read: HotRead; values: unknown[] };

/** A hot read's first row, read already with another (readRowPair): found, or not. */
export type RowRead<R> = { found: R | undefined };

/** A DateTime column as Unix ms in either dialect (SQLite stores it so; PostgreSQL's is read in UTC). */
export function epochMs(column: string, alias: string): { sqlite: string; postgres: string } {
  return { sqlite: `${column} AS "${alias}"`, postgres: `(EXTRACT(EPOCH FROM ${column}) * 1000)::float8 AS "${alias}"` };
}

/** The first row of a hot read, on SQLite's read-only connection or Prisma's own PostgreSQL pool. */
export async function readRow<R>(read: HotRead, values: unknown[]): Promise<R | undefined> {
  const { database } = getConfig();
  if (database.provider === "sqlite") return sqliteStatement<unknown[], R>(database.file, read.sqlite).get(...values);
  // PostgreSQL numbers its parameters; the SQLite text numbers them with ? in the same order.
  return (await postgresPool().query<R & pg.QueryResultRow>({ name: read.name, text: read.postgres, values })).rows[0];
}

/**
 * The first rows of two hot reads, for the same request (a token and the drop it asks for). On
 * PostgreSQL they go as one statement, each row as JSON (the same values node-pg gives for the column
 * types hot reads use), and concurrent pairs of the same two reads go as one batch of that statement:
 * its round trip (a write to the socket, a read, the pool's turn) cost more than the rows themselves
 * (issue 35). A pair joins only a batch that has not started (LookupCoalescer), so each answer comes
 * from a query begun after it was asked: a token revoked a moment before is refused.
 */
export async function readRowPair<A, B>(first: HotReadCall, second: HotReadCall): Promise<[A | undefined, B | undefined]> {
  const { database } = getConfig();
  if (database.provider === "sqlite") return [await readRow<A>(first.read, first.values), await readRow<B>(second.read, second.values)];
  const name = `${first.read.name}+${second.read.name}`;
  let batches = pairBatches.get(name);
  if (!batches) pairBatches.set(name, (batches = pairCoalescer(name, first, second)));
  return batches.load([...first.values, ...second.values]) as Promise<[A | undefined, B | undefined]>;
}
const pairBatches = new Map<string, LookupCoalescer<unknown[], [unknown, unknown]>>();

/**
 * One query for a batch of pairs: the values of each pair are a row of unnest's arrays, which the two
 * reads' $n parameters name. A pair's parameters are text (token hashes, slugs).
 */
function pairCoalescer(name: string, first: HotReadCall, second: HotReadCall): LookupCoalescer<unknown[], [unknown, unknown]> {
  const count = first.values.length + second.values.length;
  const column = (n: number) => `q."p${n}"`;
  const firstText = first.read.postgres.replace(/\$(\d+)/g, (_, n: string) => column(Number(n)));
  const secondText = second.read.postgres.replace(/\$(\d+)/g, (_, n: string) => column(Number(n) + first.values.length));
  const numbers = Array.from({ length: count }, (_, index) => index + 1);
  const text = `SELECT q."i"::int AS "index", (SELECT row_to_json(a) FROM (${firstText}) a) AS "first", (SELECT row_to_json(b) FROM (${secondText}) b) AS "second"
    FROM unnest(${numbers.map((n) => `$${n}::text[]`).join(", ")}) WITH ORDINALITY AS q(${numbers.map((n) => `"p${n}"`).join(", ")}, "i")`;
  const pairId = (values: unknown[]) => values.join("\n");
  const runBatch = async (pairs: unknown[][]) => {
    const values = numbers.map((_, position) => pairs.map((pair) => pair[position]));
    const { rows } = await postgresPool().query<{ index: number; first: unknown; second: unknown }>({ name: `${name}*`, text, values });
    return new Map(rows.map((row) => [pairId(pairs[row.index - 1]!), [row.first ?? undefined, row.second ?? undefined] as [unknown, unknown]]));
  };
  return new LookupCoalescer(runBatch, pairId, [undefined, undefined], PG_BATCHES_IN_FLIGHT);
}

/** A read whose text its caller makes for one dialect (the shape of a request, not only the dialect, decides it). */
export type DialectRead = { name: string; text: string };

/**
 * Every row of a read made for the configured dialect, prepared once per distinct text: its caller keeps
 * the number of texts small and reuses each text's string, so finding its prepared statement costs no
 * more than a hot read's.
 */
export async function readAll<R>(read: DialectRead, values: unknown[]): Promise<R[]> {
  const { database } = getConfig();
  if (database.provider === "sqlite") return sqliteStatement<unknown[], R>(database.file, read.text).all(...values);
  return (await postgresPool().query<R & pg.QueryResultRow>({ name: read.name, text: read.text, values })).rows;
}

function postgresPool(): pg.Pool {
  return databasePool() ?? (db(), databasePool()!);
}
