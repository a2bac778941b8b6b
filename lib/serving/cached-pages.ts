// Which requests server.ts answers from the page cache (lib/serving/page-cache.ts), and how each is
// validated: a drop's viewer page by the drop's revision, read on every request, so a write on any
// instance shows on the next request; the configuration-only pages by nothing, as they change only
// with a restart.
import { prefersJson } from "@/lib/discovery/respond";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { findViewerState } from "./lookup";
import { mayServeFromPageCache, servePage } from "./page-cache";
import { CACHE_LATEST, header, type RawRequest, type RawResponse } from "./raw";

const VIEWER_PATH = /^\/p\/([^/?#]+)\/?(?:\?v=([1-9][0-9]{0,8}))?$/;
/** Pages and documents built from the configuration alone. */
const CONFIGURATION_PAGES = new Set(["/", "/docs", "/llms.txt", "/openapi.json", "/api/onboard"]);
// A restart with another configuration reaches shared caches within a minute.
const CACHE_CONFIGURATION_PAGE = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

/** A drop's viewer page; null when Next must render it (a locked or unknown drop, a missing version). */
async function viewerPage(request: RawRequest, encodedSlug: string, version: string | undefined): Promise<RawResponse | null> {
  let slug: string;
  try {
    slug = decodeURIComponent(encodedSlug);
  } catch {
    return null;
  }
  if (!SLUG_PATTERN.test(slug)) return null;
  const drop = await findViewerState(slug);
  if (!drop || drop.passcodeHash !== null) return null;
  return servePage(request, {
    key: `viewer:${drop.dropId}/${version ?? "latest"}`,
    revision: drop.revision,
    path: `/p/${encodedSlug}${version ? `?v=${version}` : ""}`,
    cacheControl: CACHE_LATEST,
  });
}

function configurationPage(request: RawRequest): Promise<RawResponse | null> {
  // /api/onboard answers JSON or Markdown by Accept: one slot each.
  const json = request.url === "/api/onboard" && prefersJson(header(request.headers, "accept") ?? null);
  return servePage(request, {
    key: `configuration:${request.url}${json ? ":json" : ""}`,
    revision: 0,
    path: request.url,
    cacheControl: CACHE_CONFIGURATION_PAGE,
    renderHeaders: json ? { accept: "application/json" } : {},
  });
}

/** The cached answer's producer for a request the page cache serves, or null to let Next answer it. */
export function pageCacheRoute(request: RawRequest): (() => Promise<RawResponse | null>) | null {
  if (!mayServeFromPageCache(request)) return null;
  if (CONFIGURATION_PAGES.has(request.url)) return () => configurationPage(request);
  const viewer = request.url.startsWith("/p/") ? VIEWER_PATH.exec(request.url) : null;
  if (viewer) return () => viewerPage(request, viewer[1]!, viewer[2]);
  return null;
}
