// Which requests server.ts answers from the page cache (lib/serving/page-cache.ts), and how each is
// validated: a drop's viewer page by the drop's revision, read on every request, so a write on any
// instance shows on the next request; the configuration-only pages by nothing, as they change only
// with a restart.
import { now } from "@/lib/clock";
import { prefersHtml, prefersJson } from "@/lib/discovery/respond";
import { decideAccess, dropStateOf } from "@/lib/drops/access-decision";
import { viewerPath, type PublicPath } from "@/lib/drops/public-urls";
import { isPublicCatalogFile, PATTERN_CATALOG_PATH } from "@/lib/patterns";
import { drawCardAhead } from "@/lib/previews/og-image";
import { viewerOn } from "@/lib/sharing/standing";
import { findViewerState, viewedDrop } from "./lookup";
import { andThen, type MaybePromise } from "./maybe-async";
import { mayServeFromPageCache, servePage } from "./page-cache";
import { expiredPage, header, type RawRequest, type RawResponse } from "./raw";
import { passcodeUnlock } from "./unlock";

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

/**
 * A drop's viewer page; null when Next must render it (a locked, non-public or unknown drop, a missing
 * version, an expired drop its owner may extend).
 */
function viewerPage(request: RawRequest, path: PublicPath, slug: string): MaybePromise<RawResponse | null> {
  return andThen(findViewerState(slug), (drop) => {
    const cookieHeader = header(request.headers, "cookie");
    const viewer = viewerOn(drop && viewedDrop(drop), { slug, cookieHeader }, passcodeUnlock(slug, drop?.passcodeHash ?? null, cookieHeader));
    return andThen(viewer, (viewer) => {
      const decision = decideAccess(path, drop && dropStateOf(drop), viewer, now());
      if (decision.answer === "expired") return decision.renewable ? null : expiredPage();
      if (decision.answer !== "serve" || !decision.sharedCache || drop === null) return null;
      const version = typeof path.version === "number" ? path.version : null;
      return servePage(request, {
        key: `viewer:${drop.dropId}/${version ?? "latest"}`,
        revision: drop.revision,
        path: viewerPath(slug, version),
        cacheControl: decision.cacheControl!,
        indexable: decision.indexable,
        // The page names its card as og:image; an unfurler asks for it next.
        onRender: () => drawCardAhead(slug, version ?? drop.latestVersion),
      });
    });
  });
}

const RENDER_ACCEPT = { json: "application/json", html: "text/html" } as const;

/** /api/onboard answers JSON, HTML or Markdown (null) by Accept: one slot each. */
function onboardingVariant(request: RawRequest): keyof typeof RENDER_ACCEPT | null {
  const accept = header(request.headers, "accept") ?? null;
  return prefersJson(accept) ? "json" : prefersHtml(accept) ? "html" : null;
}

function configurationPage(request: RawRequest): MaybePromise<RawResponse | null> {
  const variant = request.url === "/api/onboard" ? onboardingVariant(request) : null;
  return servePage(request, {
    key: `configuration:${request.url}${variant ? `:${variant}` : ""}`,
    revision: 0,
    path: request.url,
    cacheControl: CACHE_CONFIGURATION_PAGE,
    renderHeaders: variant ? { accept: RENDER_ACCEPT[variant] } : {},
  });
}

/** The built-in pattern catalog's files change only with a release; unknown names are left to Next's 404. */
function isPatternCatalogFile(url: string): boolean {
  const prefix = `${PATTERN_CATALOG_PATH}/`;
  return url.startsWith(prefix) && isPublicCatalogFile(url.slice(prefix.length));
}

/**
 * The cached answer's producer for a request the page cache serves, or null to let Next answer it.
 * `path`: the request target as parsePublicPath (lib/drops/public-urls.ts) reads it.
 */
export function pageCacheRoute(request: RawRequest, path: PublicPath | null): (() => MaybePromise<RawResponse | null>) | null {
  if (!mayServeFromPageCache(request)) return null;
  const document = request.method === "GET" && (DISCOVERY_DOCUMENTS.has(request.url) || isPatternCatalogFile(request.url));
  if (CONFIGURATION_PAGES.has(request.url) || document) return () => configurationPage(request);
  const slug = path?.route === "viewer" && path.plain ? path.slug : null;
  if (path && slug !== null) return () => viewerPage(request, path, slug);
  return null;
}
