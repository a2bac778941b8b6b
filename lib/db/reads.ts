// The hottest reads, beside Prisma: the serving lookups (lib/serving/lookup.ts) and an authenticated
// read's token and drop. Prisma's client costs about a millisecond of CPU per query, more than the rest
// of such a request (issue 35); a prepared statement on SQLite costs microseconds. Every read still asks
// the database (on SQLite, whether anything changed since its row was read), so a write (a revoked token,
// a changed drop) shows on the next request on every instance.
import { createHash } from "node:crypto";
import { openSync, readSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { getConfig } from "@/lib/config";
import { DATABASE_ROWS_BYTES } from "@/lib/serving/cache-budget";
import { LookupCoalescer } from "./coalesce";
import { postgresConnection } from "./connection";

/**
 * Batches of one statement's coalesced reads in flight at once on PostgreSQL. One: a second only split the
 * waiting requests between two round trips, which cost PostgreSQL about 40 % more CPU a request and the
 * server as much or more, for no shorter wait (issue 35, sixteenth pass; four cost more still).
 */
export const PG_BATCHES_IN_FLIGHT = 1;

// What a statement answered, by its values' key: its first row, null when it found none (not a symbol of
// this module's: Next bundles the module into chunks that share the reader through globalThis), or every row.
type Kept = object | null | readonly object[];
type CachedRows = Map<string, Kept>;
type Reader = {
  connection: Database.Database;
  statements: Map<string, { statement: Database.Statement; rows: CachedRows }>;
  /** The database's -shm file, where SQLite keeps the WAL index. */
  walIndex: number;
  /** The WAL index header the cached rows were read under, and the one read last. */
  rowsHeader: Buffer;
  header: Buffer;
  /** What the cached rows hold, as answerBytes counts it. */
  cachedBytes: number;
};
type ReaderHolder = { [READER_KEY]?: Reader };
const READER_KEY = Symbol.for("htmldrop.sqlite-reader");

/**
 * The first copy of the WAL index header (SQLite's "WAL-mode File Format", section 2.2.1): its change
 * counter, last valid frame, salts and checksum, which every commit rewrites before it returns.
 */
const WAL_INDEX_HEADER_BYTES = 48;

/**
 * One read-only connection per process (WAL: reads never wait on writes, and see every committed one),
 * shared by Next's layers through globalThis.
 */
function sqliteReader(file: string): Reader {
  const holder = globalThis as ReaderHolder;
  if (!holder[READER_KEY]) {
    const connection = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
    // The migrations put the database in WAL mode, which sticks to the file; currentReader's check needs it.
    const mode = connection.pragma("journal_mode", { simple: true });
    if (mode !== "wal") throw new Error(`${file} is in ${String(mode)} journal mode, not WAL: run \`npm run migrate\`, which sets it.`);
    // Never closed: closing any descriptor of a file drops every POSIX lock the process holds on it,
    // SQLite's own on this file included.
    const walIndex = openSync(`${file}-shm`, "r");
    const header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
    holder[READER_KEY] = { connection, statements: new Map(), walIndex, rowsHeader: Buffer.alloc(WAL_INDEX_HEADER_BYTES), header, cachedBytes: 0 };
  }
  return holder[READER_KEY];
}

function prepared(reader: Reader, sql: string) {
  let entry = reader.statements.get(sql);
  if (!entry) reader.statements.set(sql, (entry = { statement: reader.connection.prepare(sql), rows: new Map() }));
  return entry;
}

/** A statement on the read-only SQLite connection, prepared once per process. */
export function sqliteStatement<P extends unknown[], R>(file: string, sql: string): Database.Statement<P, R> {
  return prepared(sqliteReader(file), sql).statement as Database.Statement<P, R>;
}

/**
 * The read-only connection with its kept answers: what a statement answered, kept until the database
 * changes. Read for every request, a row cost about a seventh of a raw drop's CPU, its pages cold in the
 * CPU's caches after the answer before (issue 35). Here one read of the WAL index header tells whether
 * any connection committed since the kept answers were read (this process's writer, another instance's),
 * and a change lets them all go: what SQLite compares to start a read, without the locks a statement
 * takes, which cost a raw answer 17 % of its CPU as `PRAGMA data_version`. Asked for at each request's
 * reads (or once for the requests of a turn, runInTurn), so a write still shows on the next
 * request on every instance.
 */
function currentReader(file: string): Reader {
  const reader = sqliteReader(file);
  const shared = turn();
  if (shared.headerRead && reader.cachedBytes < DATABASE_ROWS_BYTES) return reader;
  const { header, rowsHeader } = reader;
  // A short read (the file cut under it) leaves the header as it was: empty the cache all the same.
  const whole = readSync(reader.walIndex, header, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES;
  if (!whole || !header.equals(rowsHeader) || reader.cachedBytes >= DATABASE_ROWS_BYTES) {
    for (const { rows } of reader.statements.values()) rows.clear();
    header.copy(rowsHeader);
    if (!whole) rowsHeader.fill(0xff);
    reader.cachedBytes = 0;
  }
  shared.headerRead = shared.running;
  return reader;
}

/**
 * The requests handed to runInTurn for the next turn; while they run, whether SQLite's WAL index header
 * has been read for them. Shared through globalThis, as the reader is.
 */
type Turn = { waiting: (() => void)[]; running: boolean; headerRead: boolean };
type TurnHolder = { [TURN_KEY]?: Turn };
const TURN_KEY = Symbol.for("htmldrop.read-turn");

function turn(): Turn {
  return ((globalThis as TurnHolder)[TURN_KEY] ??= { waiting: [], running: false, headerRead: false });
}

/**
 * Runs `run` at the event loop's next setImmediate, together with every other request handed over until
 * then. On SQLite the first of them to read reads the WAL index header, as currentReader does, and the
 * rest share that look: each of them arrived before it, so its reads see every write committed before
 * it arrived, as with a look of its own, and a burst of requests costs one system call rather than one
 * each. On either database, run together they pay Node.js's work after each callback (draining the tick
 * queue, with Next's async hooks) once rather than once each: raw drops, cached pages, the live document
 * and the direct API reads took a sixth to a quarter less CPU a request (issue 35). `run` must answer its own errors:
 * one that throws ends its turn there, uncaught.
 */
export function runInTurn(run: () => void): void {
  const next = turn();
  next.waiting.push(run);
  if (next.waiting.length === 1) setImmediate(runTurn, next);
}

function runTurn(current: Turn): void {
  const runs = current.waiting;
  current.waiting = [];
  current.running = true;
  try {
    for (const run of runs) run();
  } finally {
    current.running = false;
    current.headerRead = false;
  }
}

/** A statement's first row (`all` false) or every row, as kept on a current reader; frozen, since requests share them. */
function keptAnswer(reader: Reader, sql: string, values: readonly unknown[], all: boolean): Kept {
  const { statement, rows } = prepared(reader, sql);
  const key = all ? `all${JSON.stringify(values)}` : values.length === 1 ? String(values[0]) : JSON.stringify(values);
  let answer = rows.get(key);
  if (answer === undefined) {
    answer = all ? Object.freeze(statement.all(...values).map((row) => Object.freeze(row as object))) : Object.freeze((statement.get(...values) as object | undefined) ?? null);
    rows.set(key, answer);
    reader.cachedBytes += answerBytes(key, answer);
  }
  return answer;
}

/** Whether a row is part of a kept answer (keptAnswer), which lives until the database changes and which requests share. */
export function isKept(row: object): boolean {
  return Object.isFrozen(row);
}

/** The first row of a statement on the read-only connection, kept until the database changes (currentReader). */
export function sqliteRow<R>(file: string, sql: string, values: readonly unknown[]): R | undefined {
  return (keptAnswer(currentReader(file), sql, values, false) ?? undefined) as R | undefined;
}

/** Every row of a dialect read on a current reader: kept when nothing but the database decides them. */
function sqliteAll<R>(reader: Reader, read: DialectRead, values: readonly unknown[]): readonly R[] {
  return (read.timeless ? keptAnswer(reader, read.text, values, true) : prepared(reader, read.text).statement.all(...values)) as readonly R[];
}

/**
 * An upper bound of what a kept answer holds: two bytes a character of its key and strings, and V8's
 * objects and map entry around them (about a hundred bytes, and sixteen a property).
 */
export function answerBytes(key: string, answer: Kept): number {
  let bytes = 128 + 2 * key.length;
  for (const row of Array.isArray(answer) ? answer : [answer]) {
    for (const value of row ? Object.values(row as object) : []) bytes += 16 + (typeof value === "string" ? 2 * value.length : 8);
  }
  return bytes;
}

/** The same read in each dialect; `name` names its prepared statements on PostgreSQL. */
export type HotRead = { name: string; sqlite: string; postgres: string };

/** A hot read with its parameters' values. */
export type HotReadCall = { read: HotRead; values: readonly unknown[] };

/** A hot read's first row, read already with another (readRowWith): found, or not. */
export type RowRead<R> = { found: R | undefined };

/** A value of a read made with a hot read (readRowWith) that is a column of the hot read's row, such as a token's owner. */
export class ColumnOfFirstRow {
  constructor(readonly column: string) {}
}

/**
 * A read made with a hot read, in the same statement: the first row of another hot read, or every row of
 * a read made for the configured dialect (readAll). Its values may be columns of the hot read's row.
 */
export type AlongsideCall = HotReadCall | { all: DialectRead; values: unknown[] };

/** A DateTime column as Unix ms in either dialect (SQLite stores it so; PostgreSQL's is read in UTC). */
export function epochMs(column: string, alias: string): { sqlite: string; postgres: string } {
  return { sqlite: `${column} AS "${alias}"`, postgres: `(EXTRACT(EPOCH FROM ${column}) * 1000)::float8 AS "${alias}"` };
}

/** The first row of a hot read, on SQLite's read-only connection or, batched (batchedReads), on PostgreSQL. */
export async function readRow<R>(read: HotRead, values: readonly unknown[]): Promise<R | undefined> {
  const [row] = await readTogether({ read, values });
  return row as R | undefined;
}

/**
 * The first row of a hot read and what `alongside` reads, for the same request (a token, and the drop or
 * the page of drops it asks for) in one statement. `alongside`'s answer is undefined when it takes a
 * column of a row that is not there.
 */
export async function readRowWith<A, B>(first: HotReadCall, alongside: AlongsideCall): Promise<[A | undefined, B | undefined]> {
  return (await readTogether(first, alongside)) as [A | undefined, B | undefined];
}

/**
 * What `alongside` reads on its own, its columns of another read's row taken from `row`: undefined when
 * it takes one of a row that is not there.
 */
export async function readAlone<R>(alongside: AlongsideCall, row: Record<string, unknown> | undefined): Promise<R | undefined> {
  const values = alongsideValues(alongside, row);
  if (!values) return undefined;
  return ("all" in alongside ? readAll(alongside.all, values) : readRow(alongside.read, values)) as Promise<R>;
}

/** `alongside`'s values, its columns of another read's row taken from `row`; none when `row` lacks one. */
function alongsideValues(alongside: AlongsideCall, row: Record<string, unknown> | undefined): unknown[] | undefined {
  const values = alongside.values.map((value) => (value instanceof ColumnOfFirstRow ? row?.[value.column] : value));
  return values.includes(undefined) ? undefined : values;
}

async function readTogether(first: HotReadCall, alongside?: AlongsideCall): Promise<[unknown, unknown]> {
  const { database } = getConfig();
  if (database.provider === "sqlite") {
    // One look at the WAL index for both reads: they answer the same request.
    const reader = currentReader(database.file);
    const row = (keptAnswer(reader, first.read.sqlite, first.values, false) ?? undefined) as Record<string, unknown> | undefined;
    const values = alongside && alongsideValues(alongside, row);
    if (!alongside || !values) return [row, undefined];
    return [row, "all" in alongside ? sqliteAll(reader, alongside.all, values) : (keptAnswer(reader, alongside.read.sqlite, values, false) ?? undefined)];
  }
  const parts: BatchedPart[] = [{ text: first.read.postgres, rows: "first", fromFirst: [] }];
  let name = first.read.name;
  if (alongside) {
    const fromFirst = alongside.values.map((value) => (value instanceof ColumnOfFirstRow ? value.column : undefined));
    parts.push("all" in alongside ? { text: alongside.all.text, rows: "all", order: alongside.all.order, fromFirst } : { text: alongside.read.postgres, rows: "first", fromFirst });
    name += `+${"all" in alongside ? alongside.all.name : alongside.read.name}(${fromFirst.map((column) => column ?? "").join(",")})`;
  }
  const values = [...first.values, ...(alongside?.values.filter((value) => !(value instanceof ColumnOfFirstRow)) ?? [])];
  const [row, along] = await batchedReads(name, parts).load(values);
  return [row, along];
}

/**
 * One read of a batched statement: its first row, or every row in `order` (an ORDER BY over its own
 * columns). `fromFirst` names, for each of its parameters, the first part's column it takes, if any.
 */
type BatchedPart = { text: string; rows: "first" | "all"; order?: string; fromFirst: (string | undefined)[] };

const batches = new Map<string, LookupCoalescer<unknown[], unknown[]>>();

/**
 * The batches of the statement `name`, made of `parts`. A round trip to PostgreSQL (a write to the socket,
 * a read, the pool's turn) costs more than the rows themselves (issue 35), so concurrent requests for the
 * same reads go as one statement, each part's answer as JSON (the same values node-pg gives for the
 * column types these reads use). A request joins only a batch that has not started (LookupCoalescer), so
 * each answer comes from a query begun after it was asked: a token revoked a moment before is refused.
 */
function batchedReads(name: string, parts: BatchedPart[]): LookupCoalescer<unknown[], unknown[]> {
  let coalescer = batches.get(name);
  if (!coalescer) batches.set(name, (coalescer = batchedStatement(parts)));
  return coalescer;
}

/** How many parameters a read's PostgreSQL text takes: its highest $n. */
function parameterCount(text: string): number {
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
}

/**
 * One statement for a batch of requests: each request's values are a row of unnest's arrays, which the
 * parts' $n parameters name, numbered on across the parts; a parameter that takes a column of the first
 * part's row reads that row again (an index lookup) rather than waiting on it. Batched values travel as
 * text, so a part casts any parameter that is not (`$1::int`).
 */
function batchedStatement(parts: BatchedPart[]): LookupCoalescer<unknown[], unknown[]> {
  let count = 0;
  const texts: string[] = [];
  const columns = parts.map((part, k) => {
    const parameters = Array.from({ length: parameterCount(part.text) }, (_, index) => {
      const column = part.fromFirst[index];
      return column === undefined ? `q."p${++count}"` : `(SELECT f."${column}" FROM (${texts[0]}) f)`;
    });
    const text = part.text.replace(/\$(\d+)/g, (_, n: string) => parameters[Number(n) - 1]!);
    texts.push(text);
    if (part.rows === "first") return `(SELECT row_to_json(r${k}) FROM (${text}) r${k}) AS "r${k}"`;
    const order = part.order ? ` ORDER BY ${part.order}` : "";
    return `(SELECT COALESCE(json_agg(r${k}${order}), '[]'::json) FROM (${text}) r${k}) AS "r${k}"`;
  });
  const numbers = Array.from({ length: count }, (_, index) => index + 1);
  const text = `SELECT q."i"::int AS "index", ${columns.join(", ")}
    FROM unnest(${numbers.map((n) => `$${n}::text[]`).join(", ")}) WITH ORDINALITY AS q(${numbers.map((n) => `"p${n}"`).join(", ")}, "i")`;
  // PostgreSQL keeps 63 bytes of a statement's name; the reads' names joined can be longer.
  const statementName = `htmldrop_batch_${createHash("sha256").update(text).digest("base64url").slice(0, 24)}`;
  // Values are JSON's own types: their JSON names a request without ambiguity.
  const requestId = (values: unknown[]) => JSON.stringify(values);
  const runBatch = async (requests: unknown[][]) => {
    const values = numbers.map((_, position) => requests.map((request) => request[position]));
    const { rows: found } = await batchedReadsPool().query<Record<string, unknown> & { index: number }>({ name: statementName, text, values });
    return new Map(found.map((row) => [requestId(requests[row.index - 1]!), parts.map((_, k) => row[`r${k}`] ?? undefined)]));
  };
  return new LookupCoalescer<unknown[], unknown[]>(runBatch, requestId, parts.map(() => undefined), PG_BATCHES_IN_FLIGHT);
}

/**
 * A read whose text its caller makes for one dialect (the shape of a request, not only the dialect, decides
 * it); `order` is the order of its rows as an ORDER BY over its own columns, which PostgreSQL's batches keep.
 */
export type DialectRead = {
  name: string;
  text: string;
  order?: string;
  /** Its rows follow from the database and its values alone (no clock among them): SQLite keeps them (keptAnswer). */
  timeless?: boolean;
};

/**
 * Every row of a read made for the configured dialect, prepared once per distinct text: its caller keeps
 * the number of texts small and reuses each text's string, so finding its prepared statement costs no
 * more than a hot read's. On PostgreSQL, batched as the hot reads are.
 */
export async function readAll<R>(read: DialectRead, values: unknown[]): Promise<readonly R[]> {
  const { database } = getConfig();
  if (database.provider === "sqlite") return sqliteAll<R>(currentReader(database.file), read, values);
  const [rows] = await batchedReads(`all:${read.name}`, [{ text: read.text, rows: "all", order: read.order, fromFirst: [] }]).load(values);
  return rows as R[];
}

/**
 * Connections of the batched reads' pool, shared by every statement's batch and the blob reads: enough for
 * the kinds of read that run at once (a lookup, a token with its drop or page, a blob) not to queue behind
 * one another, as a blob's long read would.
 */
const BATCHED_READS_CONNECTIONS = 4;

/** Where the pool is kept: Next loads this module once per layer, and they share it. */
export const BATCHED_READS_POOL_KEY = Symbol.for("htmldrop.batched-reads-pg-pool");
type PoolHolder = { [BATCHED_READS_POOL_KEY]?: pg.Pool };

/**
 * The batched reads' connections: their statements are planned once, generically. Left to choose,
 * PostgreSQL planned every batch anew: a batch's arrays tell it how many requests it holds, which made
 * each custom plan look cheaper than the generic one, and planning cost half of PostgreSQL's CPU for a
 * get or a list (issue 35).
 */
export function batchedReadsPoolConfig(url: string): pg.PoolConfig {
  const { poolConfig } = postgresConnection(url);
  return { ...poolConfig, options: `${poolConfig.options} -c plan_cache_mode=force_generic_plan`, max: BATCHED_READS_CONNECTIONS };
}

/** The pool every batched read runs on: these and the public pages' lookups (lib/serving/lookup.ts). */
export function batchedReadsPool(): pg.Pool {
  const holder = globalThis as PoolHolder;
  if (!holder[BATCHED_READS_POOL_KEY]) {
    const { database } = getConfig();
    if (database.provider !== "postgres") throw new Error("the batched reads' pool is PostgreSQL's");
    const pool = new pg.Pool(batchedReadsPoolConfig(database.url));
    // An idle connection that drops (a database restart) is replaced on the next query; unheard, its
    // error would surface as an uncaught exception.
    pool.on("error", (error) => console.error("htmldrop: batched reads' connection to PostgreSQL lost", error.message));
    holder[BATCHED_READS_POOL_KEY] = pool;
  }
  return holder[BATCHED_READS_POOL_KEY];
}

/** For /metrics: the batched reads' pool, if this process opened one. */
export function openedBatchedReadsPool(): pg.Pool | undefined {
  return (globalThis as PoolHolder)[BATCHED_READS_POOL_KEY];
}

/** Closes the batched reads' pool (disconnectDb): its idle connections would keep a command alive. */
export async function closeBatchedReadsPool(): Promise<void> {
  const holder = globalThis as PoolHolder;
  const pool = holder[BATCHED_READS_POOL_KEY];
  delete holder[BATCHED_READS_POOL_KEY];
  await pool?.end();
}
