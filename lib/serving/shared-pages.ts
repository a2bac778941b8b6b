// On Vercel no custom server runs, so the page cache (page-cache.ts) does not either. There the viewer
// page of a drop without a passcode is Next's own cached page instead (app/p/[slug]/shared), which
// Vercel keeps for every instance and its CDN, and every write to a drop expires it by tag. Elsewhere
// Next's cache is per process, so the shared page stays off: a write on one `next start` process would
// leave another serving the old page.
import { revalidateTag } from "next/cache";
import { now } from "@/lib/clock";
import { isExpired } from "@/lib/drops/expiry";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { findViewerState } from "./lookup";
import { expiredPage, type RawResponse } from "./raw";
import { mayIndex } from "./robots";
import { parsePlainViewerUrl } from "./viewer";

export function sharesRenderedPages(): boolean {
  return process.env.VERCEL === "1";
}

/** The tag of everything Next caches about one drop's viewer page. */
export function dropPagesTag(slug: string): string {
  return `drop-pages:${slug}`;
}

const SHARED_VIEWER_PATH = /^\/p\/[^/]+\/shared(?:\/|$)/;

/** The shared page's own URLs answer only through proxy.ts's rewrite: one public URL per page. */
export function isSharedViewerPath(pathname: string): boolean {
  return SHARED_VIEWER_PATH.test(pathname);
}

const VIEWER_PATH = /^\/p\/([^/]+)\/?$/;
/** The pages that show a drop: the viewer and the compare page. */
const DROP_PAGE_PATH = /^\/p\/([^/]+)(\/compare)?\/?$/;

/** The page decodes its [slug] segment, so a percent-encoded slug must meet the same check. */
function decodedSlug(segment: string | undefined): string | null {
  if (segment === undefined) return null;
  try {
    const slug = decodeURIComponent(segment);
    return SLUG_PATTERN.test(slug) ? slug : null;
  } catch {
    return null;
  }
}

/**
 * An answer proxy.ts gives itself, or how Next renders the viewer: rewritten to the shared page (or
 * not, null) and whether search engines may index it (lib/serving/robots.ts).
 */
export type ViewerRoute = { answer: RawResponse } | { rewrite: string | null; indexable: boolean } | null;

/**
 * What proxy.ts does with a GET or HEAD of a drop's page (the viewer, the compare page) before Next
 * renders it. An expired drop is answered 410 here, whatever the query, so no rendering path (the
 * per-request viewer, the gate, the shared page, the compare page) has to know about expiry. On
 * Vercel, a plain GET or HEAD of a drop's viewer without a passcode, latest or `?v=N`, is rewritten to
 * the shared page. Only the viewer itself may be indexed; a comparison never is. Null: not such a request.
 */
export async function routeViewerRequest(method: string, pathname: string, search: string): Promise<ViewerRoute> {
  if (method !== "GET" && method !== "HEAD") return null;
  const slug = decodedSlug(DROP_PAGE_PATH.exec(pathname)?.[1]);
  if (slug === null) return null;
  const drop = await findViewerState(slug);
  if (!drop) return { rewrite: null, indexable: false };
  if (isExpired(drop.expiresAt, now())) return { answer: expiredPage() };
  const indexable = mayIndex(drop) && VIEWER_PATH.test(pathname);
  if (!sharesRenderedPages() || drop.passcodeHash !== null || !VIEWER_PATH.test(pathname)) return { rewrite: null, indexable };
  const viewer = parsePlainViewerUrl(`${pathname}${search}`);
  return { rewrite: viewer ? `/p/${viewer.encodedSlug}/shared/${viewer.version ?? "latest"}` : null, indexable };
}

/** Called after a write to a drop commits, from inside the request that wrote it; the next request renders anew. */
export function expireDropPages(slug: string): void {
  if (sharesRenderedPages()) revalidateTag(dropPagesTag(slug), { expire: 0 });
}

/**
 * The request header proxy.ts sets on every page request under /p/ (replacing whatever a client sent):
 * the path and query asked for, which a not-found page cannot otherwise learn.
 */
export const DROP_PAGE_URL_HEADER = "x-htmldrop-drop-page";

export function isDropPagePath(pathname: string): boolean {
  return pathname.startsWith("/p/");
}

/** The slug of a page URL under /p/ (as DROP_PAGE_URL_HEADER carries it), or null. */
export function slugOfDropPage(url: string | null): string | null {
  return url === null ? null : decodedSlug(/^\/p\/([^/?#]+)/.exec(url)?.[1]);
}
