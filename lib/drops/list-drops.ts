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

/**
 * The owner's drops that carry every pair: one (ownerId, key, value) index range per pair, counted by
 * drop. Each range holds only this account's tags and no tag row is joined to another, so stale
 * statistics cannot make the planner multiply them (issue 27). The pairs travel as one array, so the
 * statement's text, prepared once, is the same however many there are. Each dialect is told to seek
 * one range per pair (SQLite's CROSS JOIN keeps the pairs as the outer loop; on PostgreSQL, OFFSET 0
 * keeps each pair's LATERAL range from being flattened into a join): left to choose, both planners read
 * every tag row of the owner when statistics were missing.
 */
function dropsTaggedWithAll(dialect: Dialect, ownerId: string | null, pairs: readonly [string, string][]): Prisma.Sql {
  const distinct = [...new Map(pairs.map((pair) => [JSON.stringify(pair), pair])).values()];
  const owner = ownerId === null ? Prisma.empty : Prisma.sql`t."ownerId" = ${ownerId} AND `;
  const tagged =
    dialect === "sqlite"
      ? Prisma.sql`(SELECT json_extract("value", '$[0]') AS "key", json_extract("value", '$[1]') AS "value" FROM json_each(${JSON.stringify(distinct)})) f
        CROSS JOIN "DropTag" t ON ${owner}t."key" = f."key" AND t."value" = f."value"`
      : Prisma.sql`unnest(${distinct.map(([key]) => key)}::text[], ${distinct.map(([, value]) => value)}::text[]) AS f("key", "value"),
        LATERAL (SELECT t."dropId" FROM "DropTag" t WHERE ${owner}t."key" = f."key" AND t."value" = f."value" OFFSET 0) t`;
  return Prisma.sql`SELECT t."dropId" FROM ${tagged} GROUP BY t."dropId" HAVING COUNT(*) = ${distinct.length}`;
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

function listConditions(dialect: Dialect, userId: string, query: ListDropsOptions, at: number): Prisma.Sql {
  const conditions = [query.shared ? sharedWith(userId) : Prisma.sql`d."ownerId" = ${userId}`];
  if (query.expired !== undefined) conditions.push(expiredCondition(dialect, query.expired, at));
  if (query.onlySlugs) conditions.push(onlySlugsCondition(dialect, query.onlySlugs));
  if (query.metadata.length > 0) conditions.push(Prisma.sql`d."id" IN (${dropsTaggedWithAll(dialect, query.shared ? null : userId, query.metadata)})`);
  if (query.titleContains) conditions.push(titleContains(dialect, query.titleContains));
  return Prisma.join(conditions, " AND ");
}

/**
 * Lists the caller's drops, or with `shared` the drops shared with the caller: a count and a page with
 * its tags, each one prepared statement (lib/db/reads.ts), as the single get is; agents list by tags as
 * often as they get a drop.
 */
export async function listDrops(userId: string, query: ListDropsOptions): Promise<DropListJson> {
  const at = now();
  const dialect = getConfig().database.provider;
  const where = listConditions(dialect, userId, query, at);
  const direction = Prisma.raw(query.sortOrder === "asc" ? "ASC" : "DESC");
  const [counted, rows] = await Promise.all([
    readAll<{ total: number | string }>(Prisma.sql`SELECT COUNT(*) AS "total" FROM "Drop" d WHERE ${where}`),
    readAll<StoredDropRow>(Prisma.sql`SELECT ${Prisma.raw(DROP_ROW_COLUMNS[dialect])} FROM "Drop" d WHERE ${where}
      ORDER BY ${SORT_COLUMNS[query.sortBy]} ${direction}, d."id" ${direction} LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`),
  ]);
  const totalItems = Number(counted[0]?.total ?? 0);
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
