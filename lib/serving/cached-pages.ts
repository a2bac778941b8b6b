// Which requests server.ts answers from the page cache (lib/serving/page-cache.ts), and how each is
// validated: a drop's viewer page by the drop's revision, read on every request, so a write on any
// instance shows on the next request; the configuration-only pages by nothing, as they change only
// with a restart.
import { now } from "@/lib/clock";
import { prefersHtml, prefersJson } from "@/lib/discovery/respond";
import { isExpired } from "@/lib/drops/expiry";
import { isPublicCatalogFile, PATTERN_CATALOG_PATH } from "@/lib/patterns";
import { findViewerState } from "./lookup";
import { mayServeFromPageCache, servePage } from "./page-cache";
import { CACHE_LATEST, expiredPage, header, publicCacheControl, type RawRequest, type RawResponse } from "./raw";
import { mayIndex, robotsHeaders, ROBOTS_HEADER } from "./robots";
import { parsePlainViewerUrl, type PlainViewerUrl } from "./viewer";

/**
 * Pages and documents built from the configuration alone. `/verify` without a code is the same for
 * everyone (the sign-in methods and the session matter only once a code names a flow).
 */
const CONFIGURATION_PAGES = new Set(["/", "/docs", "/llms.txt", "/openapi.json", "/api/onboard", "/verify"]);
/**
 * Discovery documents built from the configuration alone, for GET only (the API catalog's HEAD
 * answers a Link its GET does not carry). oidc-provider's metadata is left to Next: its CORS headers
 * follow the request.
 */
const DISCOVERY_DOCUMENTS = new Set([
  "/.well-known/agent-card.json",
  "/.well-known/api-catalog",
  "/.well-known/agent-skills/index.json",
  "/.well-known/agent-skills/htmldrop/SKILL.md",
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/mcp",
  "/.well-known/oauth-protected-resource/api",
]);
// A restart with another configuration reaches shared caches within a minute.
const CACHE_CONFIGURATION_PAGE = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

/** A drop's viewer page; null when Next must render it (a locked or unknown drop, a missing version). */
async function viewerPage(request: RawRequest, viewer: PlainViewerUrl): Promise<RawResponse | null> {
  const drop = await findViewerState(viewer.slug);
  if (!drop) return null;
  const at = now();
  if (isExpired(drop.expiresAt, at)) return expiredPage();
  if (drop.passcodeHash !== null) return null;
  const page = await servePage(request, {
    key: `viewer:${drop.dropId}/${viewer.version ?? "latest"}`,
    revision: drop.revision,
    path: `/p/${viewer.encodedSlug}${viewer.version ? `?v=${viewer.version}` : ""}`,
    cacheControl: publicCacheControl(CACHE_LATEST, drop.expiresAt, at),
  });
  // The rendered page carries proxy.ts's header already; this keeps it to the state read just now.
  if (page) {
    delete page.headers[ROBOTS_HEADER];
    Object.assign(page.headers, robotsHeaders(mayIndex(drop)));
  }
  return page;
}

function configurationPage(request: RawRequest): Promise<RawResponse | null> {
  // /api/onboard answers JSON, HTML or Markdown by Accept: one slot each.
  const accept = request.url === "/api/onboard" ? (header(request.headers, "accept") ?? null) : null;
  const variant = prefersJson(accept) ? "json" : prefersHtml(accept) ? "html" : null;
  const renderAccept = { json: "application/json", html: "text/html" } as const;
  return servePage(request, {
    key: `configuration:${request.url}${variant ? `:${variant}` : ""}`,
    revision: 0,
    path: request.url,
    cacheControl: CACHE_CONFIGURATION_PAGE,
    renderHeaders: variant ? { accept: renderAccept[variant] } : {},
  });
}

/** The built-in pattern catalog's files change only with a release; unknown names are left to Next's 404. */
function isPatternCatalogFile(url: string): boolean {
  const prefix = `${PATTERN_CATALOG_PATH}/`;
  return url.startsWith(prefix) && isPublicCatalogFile(url.slice(prefix.length));
}

/** The cached answer's producer for a request the page cache serves, or null to let Next answer it. */
export function pageCacheRoute(request: RawRequest): (() => Promise<RawResponse | null>) | null {
  if (!mayServeFromPageCache(request)) return null;
  const document = request.method === "GET" && (DISCOVERY_DOCUMENTS.has(request.url) || isPatternCatalogFile(request.url));
  if (CONFIGURATION_PAGES.has(request.url) || document) return () => configurationPage(request);
  const viewer = parsePlainViewerUrl(request.url);
  if (viewer) return () => viewerPage(request, viewer);
  return null;
}
