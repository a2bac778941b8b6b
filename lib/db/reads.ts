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

/** The same read in each dialect; `name` names its prepared statements on PostgreSQL. */
export type HotRead = { name: string; sqlite: string; postgres: string };

/** A hot read with its parameters' values. */
export type HotReadCall = { read: HotRead; values: unknown[] };

/** A hot read's first row, read already with another (readRowPair): found, or not. */
export type RowRead<R> = { found: R | undefined };

/** A DateTime column as Unix ms in either dialect (SQLite stores it so; PostgreSQL's is read in UTC). */
export function epochMs(column: string, alias: string): { sqlite: string; postgres: string } {
  return { sqlite: `${column} AS "${alias}"`, postgres: `(EXTRACT(EPOCH FROM ${column}) * 1000)::float8 AS "${alias}"` };
}

/** The first row of a hot read, on SQLite's read-only connection or, batched (readFirstRows), on PostgreSQL. */
export async function readRow<R>(read: HotRead, values: unknown[]): Promise<R | undefined> {
  const [row] = await readFirstRows([{ read, values }]);
  return row as R | undefined;
}

/** The first rows of two hot reads for the same request (a token and the drop it asks for), in one statement. */
export async function readRowPair<A, B>(first: HotReadCall, second: HotReadCall): Promise<[A | undefined, B | undefined]> {
  return (await readFirstRows([first, second])) as [A | undefined, B | undefined];
}

/**
 * The first row of each hot read. On PostgreSQL the reads go as one statement, each row as JSON (the
 * same values node-pg gives for the column types hot reads use), and concurrent requests for the same
 * reads go as one batch of that statement: a round trip (a write to the socket, a read, the pool's turn)
 * cost more than the rows themselves (issue 35). A request joins only a batch that has not started
 * (LookupCoalescer), so each answer comes from a query begun after it was asked: a token revoked a moment
 * before is refused.
 */
async function readFirstRows(calls: HotReadCall[]): Promise<unknown[]> {
  const { database } = getConfig();
  if (database.provider === "sqlite") return calls.map((call) => sqliteStatement<unknown[], unknown>(database.file, call.read.sqlite).get(...call.values));
  const name = calls.map((call) => call.read.name).join("+");
  let batches = batchedReads.get(name);
  if (!batches) batchedReads.set(name, (batches = batchedRead(name, calls.map((call) => call.read))));
  return batches.load(calls.flatMap((call) => call.values));
}
const batchedReads = new Map<string, LookupCoalescer<unknown[], unknown[]>>();

/** How many parameters a read's PostgreSQL text takes: its highest $n. */
function parameterCount(read: HotRead): number {
  return Math.max(0, ...[...read.postgres.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
}

/**
 * One statement for a batch of requests: each request's values are a row of unnest's arrays, which the
 * reads' $n parameters name, numbered on across the reads. Hot reads' parameters are text (token
 * hashes, slugs).
 */
function batchedRead(name: string, reads: HotRead[]): LookupCoalescer<unknown[], unknown[]> {
  let count = 0;
  const rows = reads.map((read, k) => {
    const first = count;
    count += parameterCount(read);
    const text = read.postgres.replace(/\$(\d+)/g, (_, n: string) => `q."p${Number(n) + first}"`);
    return `(SELECT row_to_json(r${k}) FROM (${text}) r${k}) AS "r${k}"`;
  });
  const numbers = Array.from({ length: count }, (_, index) => index + 1);
  const text = `SELECT q."i"::int AS "index", ${rows.join(", ")}
    FROM unnest(${numbers.map((n) => `$${n}::text[]`).join(", ")}) WITH ORDINALITY AS q(${numbers.map((n) => `"p${n}"`).join(", ")}, "i")`;
  const requestId = (values: unknown[]) => values.join("\n");
  const runBatch = async (requests: unknown[][]) => {
    const values = numbers.map((_, position) => requests.map((request) => request[position]));
    const { rows: found } = await postgresPool().query<Record<string, unknown> & { index: number }>({ name: `htmldrop_batch:${name}`, text, values });
    return new Map(found.map((row) => [requestId(requests[row.index - 1]!), reads.map((_, k) => row[`r${k}`] ?? undefined)]));
  };
  return new LookupCoalescer<unknown[], unknown[]>(runBatch, requestId, reads.map(() => undefined), PG_BATCHES_IN_FLIGHT);
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
