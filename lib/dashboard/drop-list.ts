import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { listDrops } from "@/lib/drops";
import { isApiError } from "@/lib/errors";
import { listDropsQuerySchema, titleSearchSchema, type DropListJson } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";
import { parseTagFilter } from "./forms";

export const DASHBOARD_PAGE_SIZE = 20;

type SearchParams = Record<string, string | string[] | undefined>;

/** The list's controls as the page shows them back in its form. */
export type DropListFilters = { q: string; tags: string; sortBy: string; sortOrder: string };

export type DropListView = {
  filters: DropListFilters;
  list: DropListJson | null;
  /** Why the filters could not be applied (a bad tag key, say); the page shows it instead of a table. */
  error: string | null;
  /** True when the account has no drops at all, not merely none matching the filters. */
  accountEmpty: boolean;
  mcpUrl: string;
  /** The server's time of this render, which the list's "expires in" and "3 days ago" wording counts from. */
  renderedAt: number;
  /** Where a `?page` past the end of the list sends the owner instead: its last page. */
  lastPageHref: string | null;
};

function one(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

/** Loads one page of the owner's drops from the dashboard's query (q, tags, sortBy, sortOrder, page). */
export async function loadDropList(userId: string, params: SearchParams): Promise<DropListView> {
  const filters: DropListFilters = { q: one(params.q).trim().slice(0, 200), tags: one(params.tags), sortBy: one(params.sortBy), sortOrder: one(params.sortOrder) };
  const mcpUrl = `${getConfig().publicUrl}/mcp`;
  const renderedAt = now();
  try {
    const query = parseInput(listDropsQuerySchema, {
      page: one(params.page) || undefined,
      pageSize: DASHBOARD_PAGE_SIZE,
      sortBy: filters.sortBy || "updated_at",
      sortOrder: filters.sortOrder || undefined,
      metadata: parseTagFilter(filters.tags),
    });
    const titleContains = parseInput(titleSearchSchema, filters.q, "q") || undefined;
    const list = await listDrops(userId, { ...query, titleContains });
    const filtered = Boolean(filters.q) || query.metadata.length > 0;
    const accountEmpty = list.pagination.total_items === 0 && (!filtered || (await listDrops(userId, { ...query, page: 1, pageSize: 1, metadata: [] })).pagination.total_items === 0);
    const shownFilters = { ...filters, sortBy: query.sortBy, sortOrder: query.sortOrder };
    const { page, total_pages: totalPages } = list.pagination;
    const lastPageHref = page > totalPages && totalPages > 0 ? dropListHref(filters, totalPages) : null;
    return { filters: shownFilters, list, error: null, accountEmpty, mcpUrl, renderedAt, lastPageHref };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { filters, list: null, error: error.message, accountEmpty: false, mcpUrl, renderedAt, lastPageHref: null };
  }
}

/** The address of another page of the same listing. */
export function dropListHref(filters: DropListFilters, page: number, overrides: Partial<DropListFilters> = {}): string {
  const merged = { ...filters, ...overrides };
  const query = new URLSearchParams();
  if (merged.q) query.set("q", merged.q);
  if (merged.tags) query.set("tags", merged.tags);
  if (merged.sortBy) query.set("sortBy", merged.sortBy);
  if (merged.sortOrder) query.set("sortOrder", merged.sortOrder);
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return search ? `/dashboard?${search}` : "/dashboard";
}
