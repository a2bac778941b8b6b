import { getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { db, Prisma } from "@/lib/db";
import type { DropListJson, ListDropsQuery } from "@/lib/schemas/drops";
import { toDropJson } from "./serialize";

const SORT_COLUMNS = { created_at: Prisma.raw(`d."createdAt"`), updated_at: Prisma.raw(`d."updatedAt"`), view_count: Prisma.raw(`d."viewCount"`) } as const;

/**
 * The REST/MCP query, plus a title search only the dashboard offers, and the drops a drop-limited
 * credential may see (null or absent: every drop of the account).
 */
export type ListDropsOptions = ListDropsQuery & { titleContains?: string; onlySlugs?: readonly string[] | null };

/**
 * The owner's drops that carry every pair: the intersection of one (ownerId, key, value) index range
 * per pair. Each range holds only this account's tags, and a set operation leaves the planner no join
 * between tag rows to order, so stale statistics cannot make it multiply them (issue 27).
 */
function dropsTaggedWithAll(ownerId: string | null, pairs: readonly [string, string][]): Prisma.Sql {
  const owner = ownerId === null ? Prisma.empty : Prisma.sql`"ownerId" = ${ownerId} AND `;
  const ranges = pairs.map(([key, value]) => Prisma.sql`SELECT "dropId" FROM "DropTag" WHERE ${owner}"key" = ${key} AND "value" = ${value}`);
  return Prisma.join(ranges, " INTERSECT ");
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
function titleContains(text: string): Prisma.Sql {
  const like = Prisma.raw(getConfig().database.provider === "postgres" ? "ILIKE" : "LIKE");
  return Prisma.sql`d."title" ${like} ('%' || ${text} || '%')`;
}

/** Expired: an expiry at or before `at` (as isExpired decides); not expired: none, or a later one. */
function expiredCondition(expired: boolean, at: number): Prisma.Sql {
  const moment = new Date(at);
  return expired ? Prisma.sql`d."expiresAt" <= ${moment}` : Prisma.sql`(d."expiresAt" IS NULL OR d."expiresAt" > ${moment})`;
}

function listConditions(userId: string, query: ListDropsOptions, at: number): Prisma.Sql {
  const conditions = [query.shared ? sharedWith(userId) : Prisma.sql`d."ownerId" = ${userId}`];
  if (query.expired !== undefined) conditions.push(expiredCondition(query.expired, at));
  if (query.onlySlugs) conditions.push(query.onlySlugs.length > 0 ? Prisma.sql`d."slug" IN (${Prisma.join([...query.onlySlugs])})` : Prisma.sql`1 = 0`);
  if (query.metadata.length > 0) conditions.push(Prisma.sql`d."id" IN (${dropsTaggedWithAll(query.shared ? null : userId, query.metadata)})`);
  if (query.titleContains) conditions.push(titleContains(query.titleContains));
  return Prisma.join(conditions, " AND ");
}

/**
 * Lists the caller's drops, or with `shared` the drops shared with the caller. The page is chosen in SQL (Prisma's relation filter becomes one EXISTS per
 * pair, which the planner may join in any order), then read through Prisma with its tags.
 */
export async function listDrops(userId: string, query: ListDropsOptions): Promise<DropListJson> {
  const at = now();
  const where = listConditions(userId, query, at);
  const direction = Prisma.raw(query.sortOrder === "asc" ? "ASC" : "DESC");
  const [[{ total }], page] = await Promise.all([
    db().$queryRaw<[{ total: number | bigint }]>`SELECT COUNT(*) AS "total" FROM "Drop" d WHERE ${where}`,
    db().$queryRaw<{ id: string }[]>`SELECT d."id" FROM "Drop" d WHERE ${where}
      ORDER BY ${SORT_COLUMNS[query.sortBy]} ${direction}, d."id" ${direction} LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
  ]);
  const ids = page.map((row) => row.id);
  const drops = await db().drop.findMany({ where: { id: { in: ids } }, include: { tags: true } });
  drops.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const totalItems = Number(total);
  return {
    data: drops.map((drop) => toDropJson(drop, at)),
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
