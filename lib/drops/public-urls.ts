// Every public URL of a drop, /p/<slug>[/<page>][?v=N]: what a request's URL names, and how each such
// URL is written. Nothing else spells /p/, so a rule about public URLs has one place to live. Imports
// nothing: the viewer's client components build their links with it too.

/** A drop's identifier as its URL carries it (decoded): lower-case letters and digits. */
export const SLUG_PATTERN = /^[a-z0-9]{6,64}$/;

const PREFIX = "/p/";
const VERSION_PARAM = /^[1-9][0-9]{0,8}$/;

/** What a public URL shows: the drop's viewer page, or one of the pages and handlers beside it. */
export type PublicRoute = "viewer" | "compare" | "raw" | "full" | "og" | "live" | "unlock" | "lock" | "view" | "comments" | InternalRoute;
/** Pages Next renders only when proxy.ts rewrites a public URL to them; asked for directly, nothing is there. */
export type InternalRoute = "shared" | "missing";
const INTERNAL_ROUTES: readonly InternalRoute[] = ["shared", "missing"];
// Spelt out once: parsePublicPath runs for every request (issue 35).
const INTERNAL_PAGES = INTERNAL_ROUTES.map((route) => ({ route, path: `/${route}`, prefix: `/${route}/` }));

const SUBPATHS = {
  compare: "compare",
  raw: "raw",
  full: "full",
  "og.png": "og",
  // The latest version's number, which open viewers poll (lib/serving/live-version.ts).
  "live.json": "live",
  unlock: "unlock",
  lock: "lock",
  view: "view",
  comments: "comments",
} as const satisfies Record<string, PublicRoute>;
type Subpath = keyof typeof SUBPATHS;
const SEGMENT_OF = Object.fromEntries(Object.entries(SUBPATHS).map(([segment, route]) => [route, segment])) as Record<(typeof SUBPATHS)[Subpath], Subpath>;
/** The pages that have always answered with a trailing slash too. */
const SLASH_TOLERANT: ReadonlySet<PublicRoute> = new Set(["viewer", "compare", "raw"]);
/** Route handlers, which answer every HTTP method themselves (the rest are pages: GET, HEAD, POST). */
const ROUTE_HANDLERS: ReadonlySet<PublicRoute> = new Set(["unlock", "lock", "view", "comments", "full", "og", "live"]);

/** `?v=`: null for the latest; "invalid" when malformed (or, except for raw, repeated). */
export type VersionParam = number | null | "invalid";

export type PublicPath = {
  route: PublicRoute;
  /** Decoded and checked; null when the segment is not a slug. */
  slug: string | null;
  /** The segment exactly as the URL spelled it. */
  encodedSlug: string;
  version: VersionParam;
  /** The query is nothing or exactly `?v=N` (no fragment): the URLs a cache may answer and the beacon's own. */
  plain: boolean;
  query: URLSearchParams;
};

const PUBLIC_URL = /^\/p\/([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?(#.*)?$/;
const PLAIN_QUERY = /^v=[1-9][0-9]{0,8}$/;

function routeOf(rest: string | undefined): PublicRoute | null {
  if (rest === undefined || rest === "/") return "viewer";
  for (const { route, path, prefix } of INTERNAL_PAGES) if (rest === path || rest.startsWith(prefix)) return route;
  const slash = rest.endsWith("/");
  const name = rest.slice(1, slash ? -1 : undefined);
  if (!Object.hasOwn(SUBPATHS, name)) return null;
  const route = SUBPATHS[name as Subpath];
  return slash && !SLASH_TOLERANT.has(route) ? null : route;
}

function decodedSlug(segment: string): string | null {
  if (!segment.includes("%")) return SLUG_PATTERN.test(segment) ? segment : null;
  try {
    const slug = decodeURIComponent(segment);
    return SLUG_PATTERN.test(slug) ? slug : null;
  } catch {
    return null;
  }
}

/** One well-formed `v` (raw takes the first of several, as its links always have): anything else is invalid. */
function versionOf(route: PublicRoute, query: URLSearchParams): VersionParam {
  const values = query.getAll("v");
  if (values.length === 0) return null;
  if (values.length > 1 && route !== "raw") return "invalid";
  return parseVersionParam(values[0]);
}

/** A version named in a query (Next's searchParams included: a repeated one is an array). */
export function parseVersionParam(value: string | string[] | undefined): VersionParam {
  if (value === undefined) return null;
  return typeof value === "string" && VERSION_PARAM.test(value) ? Number(value) : "invalid";
}

/** What a request target (path and query; an absolute URL is read from its path) names under /p/, or null for any other URL. */
export function parsePublicPath(url: string): PublicPath | null {
  const target = url.startsWith("/") ? url : url.slice(url.indexOf("/", url.indexOf("//") + 2));
  if (!target.startsWith(PREFIX)) return null;
  const match = PUBLIC_URL.exec(target);
  if (!match) return null;
  const [, encodedSlug = "", rest, search, fragment] = match;
  const route = routeOf(rest);
  if (route === null) return null;
  const query = new URLSearchParams(search ?? "");
  const plain = fragment === undefined && (search === undefined || PLAIN_QUERY.test(search));
  return { route, slug: decodedSlug(encodedSlug), encodedSlug, version: versionOf(route, query), plain, query };
}

/** A path whose handler answers every HTTP method itself (proxy.ts lets them all through). */
export function isPublicRouteHandlerPath(pathname: string): boolean {
  const path = parsePublicPath(pathname);
  return path !== null && path.encodedSlug !== "" && ROUTE_HANDLERS.has(path.route);
}

type QueryValue = string | number | null | undefined;

/** `/p/<slug>[/<page>][?query]`; query entries without a value are left out, in the order given. */
export function publicPath(slug: string, route: Exclude<PublicRoute, InternalRoute> = "viewer", query: Record<string, QueryValue> = {}): string {
  const page = route === "viewer" ? "" : `/${SEGMENT_OF[route]}`;
  const path = `${PREFIX}${encodeURIComponent(slug)}${page}`;
  const given = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== null && entry[1] !== undefined);
  // Most paths have no query: building URLSearchParams for none cost a cached viewer page a microsecond.
  return given.length === 0 ? path : `${path}?${new URLSearchParams(given.map(([name, value]) => [name, String(value)]))}`;
}

/** The same on an origin (PUBLIC_URL, or CONTENT_ORIGIN for raw). */
export function publicUrl(origin: string, slug: string, route: Exclude<PublicRoute, InternalRoute> = "viewer", query: Record<string, QueryValue> = {}): string {
  return `${origin}${publicPath(slug, route, query)}`;
}

/** The viewer, latest or pinned. */
export function viewerPath(slug: string, version: number | null = null): string {
  return publicPath(slug, "viewer", { v: version });
}

/** The Next page a public viewer URL is served from on Vercel; never a public URL itself. */
export function sharedViewerPath(slug: string, version: number | null): string {
  return `${PREFIX}${encodeURIComponent(slug)}/shared/${version ?? "latest"}`;
}

/**
 * The Next page a drop page that is not there is served from (its 404, drawn on the server): the drop,
 * or only the version asked for (then linked to the latest). Never a public URL itself.
 */
export function missingPagePath(slug: string, missing: "drop" | "version"): string {
  return `${PREFIX}${encodeURIComponent(slug)}/missing/${missing}`;
}

/** A URL of an internal page (the shared viewer, the missing page): answered only through proxy.ts's rewrites. */
export function isInternalPagePath(pathname: string): boolean {
  const path = parsePublicPath(pathname);
  return path !== null && path.encodedSlug !== "" && (INTERNAL_ROUTES as readonly PublicRoute[]).includes(path.route);
}

/** The path a page's or route handler's [slug] parameter names (Next has decoded it). */
export function routeAt(route: PublicRoute, slug: string, version: VersionParam = null): PublicPath {
  return { route, slug: SLUG_PATTERN.test(slug) ? slug : null, encodedSlug: encodeURIComponent(slug), version, plain: version !== "invalid", query: new URLSearchParams() };
}

/** Any URL under /p/, known page or not: Next answers it, and its not-found page is the drop's. */
export function isUnderDropPrefix(url: string): boolean {
  return url.startsWith(PREFIX);
}

/** The drop a URL under /p/ belongs to, whatever page it names; null when it names no slug. */
export function slugInDropUrl(url: string | null): string | null {
  const segment = url === null ? undefined : /^\/p\/([^/?#]+)/.exec(url)?.[1];
  return segment === undefined ? null : decodedSlug(segment);
}
