import Database from "better-sqlite3";
import pg from "pg";
import { getConfig } from "@/lib/config";
import { postgresConnection } from "@/lib/db/connection";

export type ServedVersion = {
  passcodeHash: string | null;
  /** null when the drop exists but has no such version. */
  blobSha: string | null;
};

const COLUMNS = `d."passcodeHash" AS "passcodeHash", v."blobSha" AS "blobSha"`;
const LATEST_SQL = `SELECT ${COLUMNS} FROM "Drop" d LEFT JOIN "Version" v ON v."dropId" = d."id" AND v."number" = d."latestVersion" WHERE d."slug" = ?`;
const PINNED_SQL = `SELECT ${COLUMNS} FROM "Drop" d LEFT JOIN "Version" v ON v."dropId" = d."id" AND v."number" = ? WHERE d."slug" = ?`;

const PG_LATEST = { name: "htmldrop_raw_latest", text: LATEST_SQL.replace("?", "$1") };
const PG_PINNED = { name: "htmldrop_raw_pinned", text: PINNED_SQL.replace("?", "$1").replace("?", "$2") };

type Statements = { latest: Database.Statement<[string], ServedVersion>; pinned: Database.Statement<[number, string], ServedVersion> };
const STATEMENTS_KEY = Symbol.for("htmldrop.serving-sqlite");
type StatementsHolder = { [STATEMENTS_KEY]?: Statements };
const POOL_KEY = Symbol.for("htmldrop.serving-pg");
type PoolHolder = { [POOL_KEY]?: pg.Pool };

/**
 * The raw endpoint's lookup on the embedded database skips Prisma: a read-only connection with two
 * prepared statements answers in microseconds, where a Prisma round trip costs about half a millisecond
 * and would cap the hot path far below a bare node:http server. The database is WAL, so reads never wait on writes.
 * On PostgreSQL a small pool of its own runs the same query as named (server-side prepared) statements.
 */
function sqliteStatements(file: string): Statements {
  const holder = globalThis as StatementsHolder;
  if (!holder[STATEMENTS_KEY]) {
    const connection = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
    holder[STATEMENTS_KEY] = { latest: connection.prepare(LATEST_SQL), pinned: connection.prepare(PINNED_SQL) };
  }
  return holder[STATEMENTS_KEY];
}

function postgresPool(url: string): pg.Pool {
  const holder = globalThis as PoolHolder;
  return (holder[POOL_KEY] ??= new pg.Pool({ ...postgresConnection(url).poolConfig, max: 8 }));
}

/**
 * The drop's lock state and the blob of one version (the head when `version` is null), read from the
 * database on every request in one indexed query, so a PUT, a passcode change or a delete is visible on
 * every instance the moment it returns.
 */
export async function findServedVersion(slug: string, version: number | null): Promise<ServedVersion | null> {
  const { database } = getConfig();
  if (database.provider === "sqlite") {
    const statements = sqliteStatements(database.file);
    return (version === null ? statements.latest.get(slug) : statements.pinned.get(version, slug)) ?? null;
  }
  const pool = postgresPool(database.url);
  const result =
    version === null ? await pool.query<ServedVersion>({ ...PG_LATEST, values: [slug] }) : await pool.query<ServedVersion>({ ...PG_PINNED, values: [version, slug] });
  return result.rows[0] ?? null;
}
