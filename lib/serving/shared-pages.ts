// On Vercel no custom server runs, so the page cache (page-cache.ts) does not either. There the viewer
// page of a drop without a passcode is Next's own cached page instead (app/p/[slug]/shared), which
// Vercel keeps for every instance and its CDN, and every write to a drop expires it by tag. Elsewhere
// Next's cache is per process, so the shared page stays off: a write on one `next start` process would
// leave another serving the old page.
import { revalidateTag } from "next/cache";
import { findViewerState } from "./lookup";
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

/**
 * Where proxy.ts rewrites a viewer request (path and query) when the shared page answers it: a plain
 * GET or HEAD of a drop without a passcode, latest or `?v=N`. Null: the viewer renders it per request.
 */
export async function sharedViewerRewrite(method: string, url: string): Promise<string | null> {
  if (!sharesRenderedPages() || (method !== "GET" && method !== "HEAD")) return null;
  const viewer = parsePlainViewerUrl(url);
  if (!viewer) return null;
  const drop = await findViewerState(viewer.slug);
  if (!drop || drop.passcodeHash !== null) return null;
  return `/p/${viewer.encodedSlug}/shared/${viewer.version ?? "latest"}`;
}

/** Called after a write to a drop commits, from inside the request that wrote it; the next request renders anew. */
export function expireDropPages(slug: string): void {
  if (sharesRenderedPages()) revalidateTag(dropPagesTag(slug), { expire: 0 });
}
