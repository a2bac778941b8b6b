import { getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { Prisma } from "@/lib/db";
import { readAll } from "@/lib/db/reads";
import type { DropListJson, ListDropsQuery } from "@/lib/schemas/drops";
import { DROP_ROW_COLUMNS, toDropRow, type StoredDropRow } from "./drop-rows";
import { toDropJson } from "./serialize";

const SORT_COLUMNS = { created_at: Prisma.raw(`d."createdAt"`), updated_at: Prisma.raw(`d."updatedAt"`), view_count: Prisma.raw(`d."viewCount"`) } as const;

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
 * the statement's text, prepared once, is the same however many there are.
 */
function dropsTaggedWithAll(dialect: Dialect, ownerId: string | null, pairs: readonly [string, string][]): Prisma.Sql {
  const distinct = [...new Map(pairs.map((pair) => [JSON.stringify(pair), pair])).values()];
  const filters =
    dialect === "sqlite"
      ? Prisma.sql`SELECT json_extract("value", '$[0]') AS "key", json_extract("value", '$[1]') AS "value" FROM json_each(${JSON.stringify(distinct)})`
      : Prisma.sql`SELECT * FROM unnest(${distinct.map(([key]) => key)}::text[], ${distinct.map(([, value]) => value)}::text[]) AS f("key", "value")`;
  const ownedBy = (alias: string) => (ownerId === null ? Prisma.empty : Prisma.sql`${Prisma.raw(alias)}."ownerId" = ${ownerId} AND `);
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
function sharedWith(userId: string): Prisma.Sql {
  return Prisma.sql`d."ownerId" <> ${userId} AND d."id" IN (
    SELECT "dropId" FROM "DropMember" WHERE "userId" = ${userId}
    UNION SELECT m."dropId" FROM "DropMember" m JOIN "TeamMember" t ON t."teamId" = m."teamId" WHERE t."userId" = ${userId})`;
}

/**
 * Case-insensitive "title contains", worded as Prisma's `contains` is: ILIKE on PostgreSQL; SQLite's
 * LIKE already ignores ASCII case.
 */
function titleContains(dialect: Dialect, text: string): Prisma.Sql {
  return Prisma.sql`d."title" ${Prisma.raw(dialect === "postgres" ? "ILIKE" : "LIKE")} ('%' || ${text} || '%')`;
}

/**
 * Expired: an expiry at or before `at` (as isExpired decides); not expired: none, or a later one. SQLite
 * stores a DateTime as Unix ms, PostgreSQL as a timestamp in UTC.
 */
function expiredCondition(dialect: Dialect, expired: boolean, at: number): Prisma.Sql {
  const moment = dialect === "sqlite" ? Prisma.sql`${at}` : Prisma.sql`(to_timestamp(${at}::float8 / 1000) AT TIME ZONE 'UTC')`;
  return expired ? Prisma.sql`d."expiresAt" <= ${moment}` : Prisma.sql`(d."expiresAt" IS NULL OR d."expiresAt" > ${moment})`;
}

function onlySlugsCondition(dialect: Dialect, slugs: readonly string[]): Prisma.Sql {
  if (slugs.length === 0) return Prisma.sql`1 = 0`;
  return dialect === "sqlite" ? Prisma.sql`d."slug" IN (SELECT "value" FROM json_each(${JSON.stringify(slugs)}))` : Prisma.sql`d."slug" = ANY(${[...slugs]}::text[])`;
}

/**
 * The drops a list reads from: the account's, or when it filters by tags the tagged ones (a few), found
 * once before any drop is read: left to plan the join, PostgreSQL without statistics looked for the
 * tags again for every drop of the account.
 */
function listSource(dialect: Dialect, userId: string, query: ListDropsOptions): { with: Prisma.Sql; from: Prisma.Sql } {
  if (query.metadata.length === 0) return { with: Prisma.empty, from: Prisma.sql`"Drop" d` };
  return {
    with: Prisma.sql`WITH x AS MATERIALIZED (${dropsTaggedWithAll(dialect, query.shared ? null : userId, query.metadata)}) `,
    from: Prisma.sql`x ${crossJoin(dialect)} "Drop" d ON d."id" = x."dropId"`,
  };
}

function listConditions(dialect: Dialect, userId: string, query: ListDropsOptions, at: number): Prisma.Sql {
  const conditions = [query.shared ? sharedWith(userId) : Prisma.sql`d."ownerId" = ${userId}`];
  if (query.expired !== undefined) conditions.push(expiredCondition(dialect, query.expired, at));
  if (query.onlySlugs) conditions.push(onlySlugsCondition(dialect, query.onlySlugs));
  if (query.titleContains) conditions.push(titleContains(dialect, query.titleContains));
  return Prisma.join(conditions, " AND ");
}

async function countDrops(source: ReturnType<typeof listSource>, where: Prisma.Sql): Promise<number | string> {
  const [counted] = await readAll<{ total: number | string }>(Prisma.sql`${source.with}SELECT COUNT(*) AS "total" FROM ${source.from} WHERE ${where}`);
  return counted?.total ?? 0;
}

/**
 * Lists the caller's drops, or with `shared` the drops shared with the caller: one prepared statement
 * (lib/db/reads.ts), as the single get is, since agents list by tags as often as they get a drop. The
 * page is chosen by id with the total beside it, then read with its tags; only a page past the end
 * needs a count of its own.
 */
export async function listDrops(userId: string, query: ListDropsOptions): Promise<DropListJson> {
  const at = now();
  const dialect = getConfig().database.provider;
  const source = listSource(dialect, userId, query);
  const where = listConditions(dialect, userId, query, at);
  const direction = Prisma.raw(query.sortOrder === "asc" ? "ASC" : "DESC");
  const sortColumn = SORT_COLUMNS[query.sortBy];
  const rows = await readAll<StoredDropRow & { total: number | string }>(Prisma.sql`SELECT ${Prisma.raw(DROP_ROW_COLUMNS[dialect])}, p."total"
    FROM (${source.with}SELECT d."id", ${sortColumn} AS "sortKey", COUNT(*) OVER () AS "total" FROM ${source.from} WHERE ${where}
      ORDER BY ${sortColumn} ${direction}, d."id" ${direction} ${limitRows(query.pageSize)} OFFSET ${(query.page - 1) * query.pageSize}) p
    ${crossJoin(dialect)} "Drop" d ON d."id" = p."id"
    ORDER BY p."sortKey" ${direction}, p."id" ${direction}`);
  const totalItems = Number(rows[0]?.total ?? (query.page > 1 ? await countDrops(source, where) : 0));
  return {
    data: rows.map((row) => toDropJson(toDropRow(row), at)),
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
