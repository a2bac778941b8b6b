import { getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { db, type Prisma } from "@/lib/db";
import type { DropListJson, ListDropsQuery } from "@/lib/schemas/drops";
import { toDropJson } from "./serialize";

const SORT_COLUMNS = { created_at: "createdAt", updated_at: "updatedAt", view_count: "viewCount" } as const;

/**
 * The REST/MCP query, plus a title search only the dashboard offers, and the drops a drop-limited
 * credential may see (null or absent: every drop of the account).
 */
export type ListDropsOptions = ListDropsQuery & { titleContains?: string; onlySlugs?: readonly string[] | null };

/**
 * Case-insensitive "title contains". PostgreSQL needs `mode: "insensitive"`; SQLite's LIKE (what Prisma's
 * contains becomes there) already ignores ASCII case and its client does not know `mode`.
 */
function titleFilter(text: string): Prisma.StringFilter {
  if (getConfig().database.provider === "postgres") return { contains: text, mode: "insensitive" } as Prisma.StringFilter;
  return { contains: text };
}

/** Expired: an expiry at or before `at` (as isExpired decides); not expired: none, or a later one. */
function expiredFilter(expired: boolean, at: number): Prisma.DropWhereInput {
  const moment = new Date(at);
  if (expired) return { expiresAt: { lte: moment } };
  return { OR: [{ expiresAt: null }, { expiresAt: { gt: moment } }] };
}

/** Lists the caller's drops; each metadata pair is an EXISTS on the (key, value) index, ANDed together. */
export async function listDrops(userId: string, query: ListDropsOptions): Promise<DropListJson> {
  const at = now();
  const where = {
    ownerId: userId,
    ...(query.expired === undefined ? {} : expiredFilter(query.expired, at)),
    ...(query.onlySlugs ? { slug: { in: [...query.onlySlugs] } } : {}),
    AND: query.metadata.map(([key, value]) => ({ tags: { some: { key, value } } })),
    ...(query.titleContains ? { title: titleFilter(query.titleContains) } : {}),
  };
  const [totalItems, drops] = await Promise.all([
    db().drop.count({ where }),
    db().drop.findMany({
      where,
      orderBy: [{ [SORT_COLUMNS[query.sortBy]]: query.sortOrder }, { id: query.sortOrder }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      include: { tags: true },
    }),
  ]);
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
