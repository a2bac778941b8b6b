import { createHash } from "node:crypto";
import { type Config, getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { Prisma } from "@/lib/db";
import { isKept, readAll, type DialectRead } from "@/lib/db/reads";
import type { DropJson, DropListJson, ListDropsQuery } from "@/lib/schemas/drops";
import { DROP_ROW_COLUMNS, type StoredDropRow } from "./drop-rows";
import { toDropJson } from "./serialize";

/** Each sort's column, which a page's rows (DROP_ROW_COLUMNS) also carry under its name. */
const SORT_COLUMNS = { created_at: "createdAt", updated_at: "updatedAt", view_count: "viewCount" } as const;

/**
 * The REST/MCP query, plus a title search only the dashboard offers, and the drops a drop-limited
 * credential may see (null or absent: every drop of the account).
 */
export type ListDropsOptions = ListDropsQuery & { titleContains?: string; onlySlugs?: readonly string[] | null };

type Dialect = "sqlite" | "postgres";

/** How far each pair's range is counted to find the smallest: enough to tell a rare pair from a common one. */
const RANGE_ESTIMATE_ROWS = 32;

/**
 * A LIMIT written into the statement's text. SQLite plans a LIMIT with its bound value, so a statement
 * whose LIMIT is a parameter is prepared again on every run (60 of this list's 100 µs); as literals there
 * is one text per page size, and the schema caps page sizes at 100.
 */
function limitRows(rows: number): Prisma.Sql {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`not a row count: ${rows}`);
  return Prisma.raw(`LIMIT ${rows}`);
}

/**
 * The owner's drops that carry every pair, as rows of "dropId": the range of the rarest pair (its size
 * counted up to RANGE_ESTIMATE_ROWS), each of its drops then checked for the other pairs by primary
 * key. Only this account's tags are read, through its (ownerId, key, value) index, and no more of them
 * than the rarest pair holds besides the estimates, whatever the statistics say (issue 27). The pairs travel as one array, so
 * the statement's text, prepared once, is the same however many there are. Without `owned`, any owner's.
 */
function dropsTaggedWithAll(dialect: Dialect, owned: boolean): Prisma.Sql {
  const filters =
    dialect === "sqlite"
      ? Prisma.sql`SELECT json_extract("value", '$[0]') AS "key", json_extract("value", '$[1]') AS "value" FROM json_each(${slot("pairsJson")})`
      : Prisma.sql`SELECT "value"->>0 AS "key", "value"->>1 AS "value" FROM json_array_elements(${slot("pairsJson")}::json)`;
  const ownedBy = (alias: string) => (owned ? Prisma.sql`${Prisma.raw(alias)}."ownerId" = ${slot("userId")} AND ` : Prisma.empty);
  return Prisma.sql`WITH f AS (${filters}),
    rarest AS (SELECT "key", "value" FROM f ORDER BY (SELECT COUNT(*) FROM (SELECT 1 FROM "DropTag" c WHERE ${ownedBy("c")}c."key" = f."key" AND c."value" = f."value" ${limitRows(RANGE_ESTIMATE_ROWS)}) n) LIMIT 1)
    SELECT t."dropId" FROM rarest ${crossJoin(dialect)} "DropTag" t ON ${ownedBy("t")}t."key" = rarest."key" AND t."value" = rarest."value"
    WHERE NOT EXISTS (SELECT 1 FROM f WHERE NOT EXISTS (SELECT 1 FROM "DropTag" m WHERE m."dropId" = t."dropId" AND m."key" = f."key" AND m."value" = f."value"))`;
}

/** A join whose left side SQLite must loop over (its CROSS JOIN); PostgreSQL's planner already does with a one-row side. */
function crossJoin(dialect: Dialect): Prisma.Sql {
  return Prisma.raw(dialect === "sqlite" ? "CROSS JOIN" : "JOIN");
}

/** Other accounts' drops whose list names the account, as a person or through one of its teams. */
function sharedWith(): Prisma.Sql {
  return Prisma.sql`d."ownerId" <> ${slot("userId")} AND d."id" IN (
    SELECT "dropId" FROM "DropMember" WHERE "userId" = ${slot("userId")}
    UNION SELECT m."dropId" FROM "DropMember" m JOIN "TeamMember" t ON t."teamId" = m."teamId" WHERE t."userId" = ${slot("userId")})`;
}

/**
 * Case-insensitive "title contains", worded as Prisma's `contains` is: ILIKE on PostgreSQL; SQLite's
 * LIKE already ignores ASCII case.
 */
function titleContains(dialect: Dialect): Prisma.Sql {
  return Prisma.sql`d."title" ${Prisma.raw(dialect === "postgres" ? "ILIKE" : "LIKE")} ('%' || ${slot("title")} || '%')`;
}

/**
 * Expired: an expiry at or before `at` (as isExpired decides); not expired: none, or a later one. SQLite
 * stores a DateTime as Unix ms, PostgreSQL as a timestamp in UTC.
 */
function expiredCondition(dialect: Dialect, expired: boolean): Prisma.Sql {
  const moment = dialect === "sqlite" ? Prisma.sql`${slot("at")}` : Prisma.sql`(to_timestamp(${slot("at")}::float8 / 1000) AT TIME ZONE 'UTC')`;
  return expired ? Prisma.sql`d."expiresAt" <= ${moment}` : Prisma.sql`(d."expiresAt" IS NULL OR d."expiresAt" > ${moment})`;
}

function onlySlugsCondition(dialect: Dialect, anySlugs: boolean): Prisma.Sql {
  if (!anySlugs) return Prisma.sql`1 = 0`;
  const slugs = dialect === "sqlite" ? Prisma.sql`SELECT "value" FROM json_each(${slot("slugsJson")})` : Prisma.sql`SELECT json_array_elements_text(${slot("slugsJson")}::json)`;
  return Prisma.sql`d."slug" IN (${slugs})`;
}

/**
 * The drops a list reads from: the account's, or when it filters by tags the tagged ones (a few), found
 * once before any drop is read: left to plan the join, PostgreSQL without statistics looked for the
 * tags again for every drop of the account.
 */
function listSource(dialect: Dialect, shape: ListShape): { with: Prisma.Sql; from: Prisma.Sql } {
  if (!shape.tagged) return { with: Prisma.empty, from: Prisma.sql`"Drop" d` };
  return {
    with: Prisma.sql`WITH x AS MATERIALIZED (${dropsTaggedWithAll(dialect, !shape.shared)}) `,
    from: Prisma.sql`x ${crossJoin(dialect)} "Drop" d ON d."id" = x."dropId"`,
  };
}

function listConditions(dialect: Dialect, shape: ListShape): Prisma.Sql {
  const conditions = [shape.shared ? sharedWith() : Prisma.sql`d."ownerId" = ${slot("userId")}`];
  if (shape.expired !== undefined) conditions.push(expiredCondition(dialect, shape.expired));
  if (shape.onlySlugs !== "all") conditions.push(onlySlugsCondition(dialect, shape.onlySlugs === "some"));
  if (shape.titled) conditions.push(titleContains(dialect));
  return Prisma.join(conditions, " AND ");
}

/** What a list's statements are made of: everything of the query but its values. */
type ListShape = Pick<ListDropsOptions, "sortBy" | "sortOrder" | "pageSize" | "expired"> & {
  dialect: Dialect;
  tagged: boolean;
  shared: boolean;
  /** Every drop of the account, only those of a drop-limited credential (some), or none at all. */
  onlySlugs: "all" | "some" | "none";
  titled: boolean;
};

/** The values a list's statements take, each filled in where its slot stands. */
type ListValues = {
  /** An account's id, or a stand-in for one that a paired read fills in (dropListPage). */
  userId: unknown;
  at: number;
  offset: number;
  pairsJson: string;
  slugsJson: string;
  title: string;
};

/** Stands where one of the list's values goes while a statement is made, once per shape. */
class Slot {
  constructor(readonly name: keyof ListValues) {}
}
const slot = (name: keyof ListValues) => new Slot(name);

/** A statement for one shape: its text, prepared once, and the values it takes in order. */
type ShapedStatement = { read: DialectRead; slots: (keyof ListValues)[] };

function shaped(statement: Prisma.Sql, dialect: Dialect, order?: string): ShapedStatement {
  const text = dialect === "sqlite" ? statement.sql : statement.text;
  const slots = statement.values.map((value) => {
    if (!(value instanceof Slot)) throw new Error("a list statement's value is not a slot");
    return value.name;
  });
  // A statement without the clock answers the same until the database changes.
  const timeless = !slots.includes("at");
  return { read: { name: `htmldrop_${createHash("sha256").update(text).digest("base64url").slice(0, 24)}`, text, order, timeless }, slots };
}

type ListStatements = { page: ShapedStatement; count: ShapedStatement };

/**
 * The page (chosen by id, with the total beside it, then read with its tags) and the count a page past
 * the end needs, made once per shape: building the statement and its text for each request cost a
 * sixth of a list's CPU (issue 35).
 */
function listStatements(shape: ListShape): ListStatements {
  const key = JSON.stringify(shape);
  let statements = shapedStatements.get(key);
  if (statements) return statements;
  const { dialect } = shape;
  const source = listSource(dialect, shape);
  const where = listConditions(dialect, shape);
  const order = shape.sortOrder === "asc" ? "ASC" : "DESC";
  const direction = Prisma.raw(order);
  const sortName = SORT_COLUMNS[shape.sortBy];
  const sortColumn = Prisma.raw(`d."${sortName}"`);
  // A batch on PostgreSQL passes every value as text (lib/db/reads.ts).
  const offset = dialect === "postgres" ? Prisma.sql`${slot("offset")}::int` : Prisma.sql`${slot("offset")}`;
  const page = Prisma.sql`SELECT ${Prisma.raw(DROP_ROW_COLUMNS[dialect])}, p."total"
    FROM (${source.with}SELECT d."id", ${sortColumn} AS "sortKey", COUNT(*) OVER () AS "total" FROM ${source.from} WHERE ${where}
      ORDER BY ${sortColumn} ${direction}, d."id" ${direction} ${limitRows(shape.pageSize)} OFFSET ${offset}) p
    ${crossJoin(dialect)} "Drop" d ON d."id" = p."id"
    ORDER BY p."sortKey" ${direction}, p."id" ${direction}`;
  const count = Prisma.sql`${source.with}SELECT COUNT(*) AS "total" FROM ${source.from} WHERE ${where}`;
  statements = { page: shaped(page, dialect, `"${sortName}" ${order}, "id" ${order}`), count: shaped(count, dialect) };
  shapedStatements.set(key, statements);
  return statements;
}
// Bounded: the schema caps page sizes, and every other part of a shape takes a few values.
const shapedStatements = new Map<string, ListStatements>();

function readShaped<R>(statement: ShapedStatement, values: ListValues): Promise<readonly R[]> {
  return readAll<R>(statement.read, valuesOf(statement, values));
}

function valuesOf(statement: ShapedStatement, values: ListValues): unknown[] {
  return statement.slots.map((name) => values[name]);
}

export type ListedDropRow = StoredDropRow & { total: number | string };

/**
 * A list's page as a read, made before it is read: for `owner`, an account's id, or where it goes with
 * the caller's token (authenticateBearerAlong) the stand-in for the token's owner.
 */
export type DropListPage = { all: DialectRead; values: unknown[]; at: number; statements: ListStatements; listValues: ListValues };

export function dropListPage(owner: unknown, query: ListDropsOptions): DropListPage {
  const at = now();
  const pairs = [...new Map(query.metadata.map((pair) => [JSON.stringify(pair), pair])).values()];
  const statements = listStatements({
    dialect: getConfig().database.provider,
    sortBy: query.sortBy,
    sortOrder: query.sortOrder,
    pageSize: query.pageSize,
    expired: query.expired,
    tagged: pairs.length > 0,
    shared: Boolean(query.shared),
    onlySlugs: !query.onlySlugs ? "all" : query.onlySlugs.length > 0 ? "some" : "none",
    titled: Boolean(query.titleContains),
  });
  const listValues: ListValues = {
    userId: owner,
    at,
    offset: (query.page - 1) * query.pageSize,
    pairsJson: JSON.stringify(pairs),
    slugsJson: JSON.stringify(query.onlySlugs ?? []),
    title: query.titleContains ?? "",
  };
  return { all: statements.page.read, values: valuesOf(statements.page, listValues), at, statements, listValues };
}

/** The JSON of drops on kept pages, by row, with the configuration that made their addresses. */
const keptDropsJson = new WeakMap<object, { config: Config; json: DropJson }>();

/**
 * A listed drop's JSON. A row of a page kept until the database changes (SQLite's, lib/db/reads.ts) keeps
 * its JSON as long, unless it has an expiry, which puts the clock in it. Converted on every request (its
 * tags parsed from JSON), a list of five cost 245 µs of CPU against 166.
 */
function listedDropJson(row: ListedDropRow, at: number): DropJson {
  if (row.expiresAt !== null || !isKept(row)) return toDropJson(row, at);
  const config = getConfig();
  const kept = keptDropsJson.get(row);
  if (kept?.config === config) return kept.json;
  const json = Object.freeze(toDropJson(row, at));
  keptDropsJson.set(row, { config, json });
  return json;
}

/**
 * Lists the caller's drops, or with `shared` the drops shared with the caller: one prepared statement
 * (lib/db/reads.ts), as the single get is, since agents list by tags as often as they get a drop. Only a
 * page past the end needs a count of its own. `read` is the page when it was read already, with the
 * caller's token, for this query.
 */
export async function listDrops(userId: string, query: ListDropsOptions, read?: { call: DropListPage; found: ListedDropRow[] | undefined }): Promise<DropListJson> {
  const page = read?.found ? read.call : dropListPage(userId, query);
  const rows = read?.found ?? (await readAll<ListedDropRow>(page.all, page.values));
  const values = { ...page.listValues, userId };
  const totalItems = Number(rows[0]?.total ?? (query.page > 1 ? ((await readShaped<{ total: number | string }>(page.statements.count, values))[0]?.total ?? 0) : 0));
  return {
    data: rows.map((row) => listedDropJson(row, page.at)),
    pagination: {
      page: query.page,
      page_size: query.pageSize,
      total_items: totalItems,
      total_pages: Math.ceil(totalItems / query.pageSize),
      sort_by: query.sortBy,
      sort_order: query.sortOrder,
    },
  };
}
