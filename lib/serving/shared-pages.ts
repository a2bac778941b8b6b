// On Vercel no custom server runs, so the page cache (page-cache.ts) does not either. There the viewer
// page of a drop without a passcode is Next's own cached page instead (app/p/[slug]/shared), which
// Vercel keeps for every instance and its CDN, and every write to a drop expires it by tag. Elsewhere
// Next's cache is per process, so the shared page stays off: a write on one `next start` process would
// leave another serving the old page.
import { now } from "@/lib/clock";
import { decideAccess, dropStateOf } from "@/lib/drops/access-decision";
import { sharesRenderedPages } from "@/lib/drops/changed";
import { missingPagePath, parsePublicPath, sharedViewerPath } from "@/lib/drops/public-urls";
import { findServedVersion, findViewerState, viewedDrop } from "./lookup";
import { expiredPage, type RawResponse } from "./raw";
import { viewerOn } from "@/lib/sharing/standing";
import { passcodeUnlock } from "./unlock";

/**
 * An answer proxy.ts gives itself, or how Next renders the viewer: rewritten to the shared page (or
 * not, null) and whether search engines may index it (lib/serving/robots.ts).
 */
export type ViewerRoute = { answer: RawResponse } | { missing: string } | { rewrite: string | null; indexable: boolean } | null;

/**
 * What proxy.ts does with a GET or HEAD of a drop's page (the viewer, the compare page) before Next
 * renders it, as the access decision has it: a drop (or viewer version) that is not there, or not for
 * this viewer, is answered 404 with the missing page (missingPagePath), which Next draws on the server
 * as it does not a page's notFound() (vercel/next.js#62228: blank without JavaScript); an expired drop
 * is answered 410 here, so no rendering path (the per-request viewer, the gate, the shared page, the
 * compare page) has to know about expiry. On Vercel, a plain GET or HEAD of a drop's viewer that
 * shared caches may keep, latest or `?v=N`, is rewritten to the shared page. Null: not such a request.
 */
export async function routeViewerRequest(method: string, pathname: string, search: string, cookieHeader: string | null): Promise<ViewerRoute> {
  if (method !== "GET" && method !== "HEAD") return null;
  const page = parsePublicPath(pathname);
  if ((page?.route !== "viewer" && page?.route !== "compare") || page.slug === null) return null;
  const target = parsePublicPath(`${pathname}${search}`)!;
  const drop = await findViewerState(page.slug);
  const viewer = await viewerOn(drop && viewedDrop(drop), { slug: page.slug, cookieHeader }, passcodeUnlock(page.slug, drop?.passcodeHash ?? null, cookieHeader));
  const at = now();
  const forTheDrop = decideAccess(page, drop && dropStateOf(drop), viewer, at);
  // The viewer's version is decided here too, so that a missing one gets the missing page; the compare
  // page checks the versions it compares itself.
  const pinned = forTheDrop.answer === "serve" && target.route === "viewer" && typeof target.version === "number" ? target.version : null;
  // The latest is there by definition: only an older version costs a lookup.
  const versionExists = pinned === null ? undefined : pinned === drop!.latestVersion || (await findServedVersion(page.slug, pinned))?.blobSha != null;
  const decision = target.route === "viewer" ? decideAccess(target, drop && dropStateOf(drop, versionExists), viewer, at) : forTheDrop;
  if (decision.answer === "not_found" || decision.answer === "version_not_found") {
    return { missing: missingPagePath(page.slug, forTheDrop.answer === "serve" ? "version" : "drop") };
  }
  if (decision.answer === "expired") return decision.renewable ? { rewrite: null, indexable: false } : { answer: expiredPage() };
  if (decision.answer !== "serve") return { rewrite: null, indexable: false };
  if (!sharesRenderedPages() || !decision.sharedCache || target.route !== "viewer" || !target.plain) return { rewrite: null, indexable: decision.indexable };
  return { rewrite: sharedViewerPath(page.slug, typeof target.version === "number" ? target.version : null), indexable: decision.indexable };
}

/**
 * The request header proxy.ts sets on every page request under /p/ (replacing whatever a client sent):
 * the path and query asked for, which a not-found page cannot otherwise learn.
 */
export const DROP_PAGE_URL_HEADER = "x-htmldrop-drop-page";
