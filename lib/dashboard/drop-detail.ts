import { listComments } from "@/lib/comments/comments";
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { getDrop, getDropFor, getDropStats, getVersion, listVersions, toDropJson } from "@/lib/drops";
import { isApiError } from "@/lib/errors";
import type { CommentListJson } from "@/lib/schemas/comments";
import type { DropJson, DropStatsJson, VersionListItemJson } from "@/lib/schemas/drops";

/** The drop page's view chart and tables cover this many days, today (UTC) included. */
export const STATS_DAYS = 30;
/** The drop page shows its thread this many comments at a time, oldest first, with a pager (a drop takes at most 1000). */
export const DASHBOARD_COMMENTS_PER_PAGE = 25;

/** A version as the drop page lists it: with its context text, which the owner reads in the list. */
export type VersionRow = VersionListItemJson & { context: string | null };

export type DropDetail = {
  drop: DropJson;
  versions: VersionRow[];
  stats: DropStatsJson;
  /** One page of the drop's comments, resolved ones included, oldest first; null for an editor, as the thread is the owner's. */
  comments: CommentListJson | null;
  /** The owner, rather than an editor on the drop's list (lib/drops/access.ts says what each may do). */
  isOwner: boolean;
  /** The server's time of this render: the expiry countdown counts from it, not from the browser's clock. */
  renderedAt: number;
  /** Days the purge keeps an expired drop before deleting it. */
  retentionDays: number;
};

/** A version's context; null when the version was deleted since the list was read. */
async function contextOf(userId: string, slug: string, number: number): Promise<string | null> {
  try {
    return (await getVersion(userId, slug, number)).context;
  } catch (error) {
    if (isApiError(error) && error.code === "version_not_found") return null;
    throw error;
  }
}

/** The title for a tab showing one of the owner's drops, or null when it is missing or someone else's. */
export async function dropTitleFor(userId: string, slug: string): Promise<string | null> {
  try {
    return (await getDrop(userId, slug)).title;
  } catch (error) {
    if (isApiError(error)) return null;
    throw error;
  }
}

/** `?comments_page=`: a hand-typed value that is not a page number shows the first page rather than an error. */
export function commentPageFrom(value: unknown): number {
  return typeof value === "string" && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : 1;
}

/** A page of the drop's thread; a page past the last is the last. */
async function commentsPage(userId: string, slug: string, page: number): Promise<CommentListJson> {
  const list = await listComments(userId, slug, { status: "all", page, pageSize: DASHBOARD_COMMENTS_PER_PAGE });
  const last = list.pagination.total_pages;
  return page > last && last > 0 ? listComments(userId, slug, { status: "all", page: last, pageSize: DASHBOARD_COMMENTS_PER_PAGE }) : list;
}

/**
 * A drop its owner or one of its editors may act on, with its versions (newest first, each with its
 * context), views and, for the owner, page `commentPage` of its comments; null when it is missing or
 * the account may not act on it.
 */
export async function loadDropDetail(userId: string, slug: string, commentPage = 1): Promise<DropDetail | null> {
  try {
    const row = await getDropFor(userId, slug, "editor");
    const isOwner = row.ownerId === userId;
    const [versions, stats, comments] = await Promise.all([listVersions(userId, slug), getDropStats(userId, slug, STATS_DAYS), isOwner ? commentsPage(userId, slug, commentPage) : null]);
    const rows = await Promise.all(versions.toReversed().map(async (version): Promise<VersionRow> => ({ ...version, context: version.has_context ? await contextOf(userId, slug, version.version) : null })));
    return { drop: toDropJson(row), versions: rows, stats, comments, isOwner, renderedAt: now(), retentionDays: getConfig().expiredRetentionDays };
  } catch (error) {
    if (isApiError(error) && (error.code === "not_found" || error.code === "forbidden" || error.code === "invalid_slug")) return null;
    throw error;
  }
}
