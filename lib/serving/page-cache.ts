// Pages Next renders identically for everyone, kept in memory and served by server.ts before Next's
// router: a drop's public viewer page (valid while the drop's revision is unchanged) and the pages and
// documents that depend only on the configuration (valid for the process's life). A miss asks Next for
// the page over loopback, exactly as a browser would, so the cached bytes are Next's own.
import { createHash, randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { PAGE_CACHE_BYTES } from "./cache-budget";
import type { MaybePromise } from "./maybe-async";
import { type HeaderSets, keptHeaders, mergeHeaders } from "./merge-headers";
import { acceptedEncoding, header, matchesEtag, type RawRequest, type RawResponse } from "./raw";
import { ROBOTS_HEADER, robotsHeaders } from "./robots";

/** Marks the cache's own render requests, which must reach Next; a per-process secret, so no client can skip the cache with it. */
const RENDER_HEADER = "x-htmldrop-page-render";
// Hop-by-hop and per-response headers are not stored; cache-control and etag are the cache's own.
const UNSTORED_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "cache-control", "etag", "vary"]);

/** `answers`: the header sets its answers carried, each shared by every answer it fits (answerHeaders). */
type CachedPage = {
  key: string;
  revision: number;
  headers: Record<string, string>;
  publicCacheControl: string | null;
  identity: Buffer;
  gzip: Buffer;
  etag: string;
  bytes: number;
  answers: HeaderSets;
};
type CacheState = { pages: Map<string, CachedPage>; bytes: number; renders: Map<string, Promise<CachedPage | null>>; origin: string | null; renderToken: string; hits: number; misses: number };
const CACHE_KEY = Symbol.for("htmldrop.page-cache");
type CacheHolder = { [CACHE_KEY]?: CacheState };

function state(): CacheState {
  const holder = globalThis as CacheHolder;
  return (holder[CACHE_KEY] ??= { pages: new Map(), bytes: 0, renders: new Map(), origin: null, renderToken: randomBytes(24).toString("base64url"), hits: 0, misses: 0 });
}

/** For /metrics: what the cache holds and how often it answered. */
export function pageCacheStats(): { bytes: number; entries: number; hits: number; misses: number } {
  const { bytes, pages, hits, misses } = state();
  return { bytes, entries: pages.size, hits, misses };
}

/** server.ts names the loopback origin Next listens on once it does; until then every request goes to Next. */
export function enablePageCache(origin: string): void {
  state().origin = origin;
}

/**
 * Whether the cache may answer at all: it is enabled, the request is a plain GET or HEAD (not one of
 * the cache's own renders, nor a client-side navigation, whose RSC payload differs from the page).
 */
export function mayServeFromPageCache(request: RawRequest): boolean {
  const { headers } = request;
  return (
    state().origin !== null &&
    (request.method === "GET" || request.method === "HEAD") &&
    headers[RENDER_HEADER] !== state().renderToken &&
    headers.rsc === undefined &&
    headers["next-router-prefetch"] === undefined
  );
}

function store(page: CachedPage): void {
  const cache = state();
  const previous = cache.pages.get(page.key);
  if (previous) cache.bytes -= previous.bytes;
  cache.pages.delete(page.key);
  cache.pages.set(page.key, page);
  cache.bytes += page.bytes;
  if (cache.bytes <= PAGE_CACHE_BYTES) return;
  // Least recently used first: a Map iterates in insertion order and a hit re-inserts its page.
  for (const [key, oldest] of cache.pages) {
    if (cache.bytes <= PAGE_CACHE_BYTES) break;
    cache.pages.delete(key);
    cache.bytes -= oldest.bytes;
  }
}

/**
 * Next's Vary (it names the headers of its client-side navigations, which get another body from the same
 * URL) with Accept-Encoding, which the cache's gzip answers vary by, named once: Next names it too when it compresses.
 */
function varyByEncoding(vary: string | null): string {
  const names = (vary ?? "").split(",").map((name) => name.trim()).filter(Boolean);
  return (names.some((name) => name.toLowerCase() === "accept-encoding") ? names : [...names, "Accept-Encoding"]).join(", ");
}

/** Asks Next for the page, as any browser would; only a complete, cookie-free 200 is kept. */
async function render(path: string, key: string, revision: number, requestHeaders: Record<string, string>): Promise<CachedPage | null> {
  const { origin, renderToken } = state();
  const response = await fetch(`${origin}${path}`, { headers: { ...requestHeaders, [RENDER_HEADER]: renderToken, "accept-encoding": "identity" }, redirect: "manual" });
  // Read to the end even when it is not kept: with this render's body cancelled, Next (16.4) left the
  // next request for the same page, the one it is handed to, waiting forever.
  const identity = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || response.headers.has("set-cookie")) return null;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!UNSTORED_HEADERS.has(name)) headers[name] = value;
  });
  headers.vary = varyByEncoding(response.headers.get("vary"));
  const etag = createHash("sha256").update(identity).digest("base64url").slice(0, 27);
  const gzip = gzipSync(identity);
  // Route handlers that already answer for shared caches (the discovery documents) keep their policy.
  const ownCacheControl = response.headers.get("cache-control");
  const publicCacheControl = ownCacheControl?.startsWith("public") ? ownCacheControl : null;
  return { key, revision, headers, publicCacheControl, identity, gzip, etag, bytes: identity.length + gzip.length, answers: new Map() };
}

function renderOnce(path: string, key: string, revision: number, requestHeaders: Record<string, string>): Promise<CachedPage | null> {
  const { renders } = state();
  const renderKey = `${key}@${revision}`;
  let pending = renders.get(renderKey);
  if (!pending) {
    pending = render(path, key, revision, requestHeaders).finally(() => renders.delete(renderKey));
    renders.set(renderKey, pending);
  }
  return pending;
}

// A page's answers differ by encoding, status, outcome, cache lifetime (an expiring drop's shortens
// every second) and indexing: a few sets in use at once.
const ANSWER_HEADER_SETS = 8;

type AnswerShape = { gzip: boolean; length: number | null; outcome: "hit" | "miss"; cacheControl: string; indexable: boolean | undefined };

/** The headers of an answer from a page (`length` null: a 304's), shared by every answer they fit. */
function answerHeaders(page: CachedPage, { gzip, length, outcome, cacheControl, indexable }: AnswerShape): Readonly<Record<string, string>> {
  return keptHeaders(page.answers, `${gzip} ${length} ${outcome} ${indexable} ${cacheControl}`, ANSWER_HEADER_SETS, () => {
    const rendered = { ...page.headers };
    // A drop's page says whether it may be indexed as the drop's state says now, not as it did when rendered.
    if (indexable !== undefined) delete rendered[ROBOTS_HEADER];
    const body: Record<string, string> = length === null ? {} : { ...(gzip ? { "content-encoding": "gzip" } : {}), "content-length": String(length) };
    const etag = gzip ? `"${page.etag}-gz"` : `"${page.etag}"`;
    return mergeHeaders(rendered, indexable === undefined ? {} : robotsHeaders(indexable), { "cache-control": cacheControl, etag, "x-htmldrop-cache": outcome }, body);
  });
}

function respond(page: CachedPage, request: RawRequest, entry: PageEntry, outcome: "hit" | "miss"): RawResponse {
  const gzip = acceptedEncoding(header(request.headers, "accept-encoding"), ["gzip"]) === "gzip";
  const notModified = matchesEtag(header(request.headers, "if-none-match"), page.etag);
  const body = gzip ? page.gzip : page.identity;
  // Built whole: a spread followed by more properties leaves V8's fast path (merge-headers.ts).
  const shape = { gzip, length: notModified ? null : body.length, outcome, cacheControl: page.publicCacheControl ?? entry.cacheControl, indexable: entry.indexable };
  if (notModified) return { status: 304, headers: answerHeaders(page, shape), body: null };
  return { status: 200, headers: answerHeaders(page, shape), body: request.method === "HEAD" ? null : body };
}

export type PageEntry = {
  /** What the page is: the same key is one cache slot. */
  key: string;
  /** The state the page shows; a stored page of another revision is rendered again. */
  revision: number;
  /** The path Next renders it from. */
  path: string;
  /** Unless the rendered response already allows shared caches. */
  cacheControl: string;
  /** A drop's page: whether it may be indexed now (its X-Robots-Tag follows this, not the rendered page's). */
  indexable?: boolean;
  /** Request headers the page depends on, sent with the render. */
  renderHeaders?: Record<string, string>;
  /** Called as the page starts being rendered (a miss), to prepare what its readers ask for next. */
  onRender?: () => void;
};

/** The page from cache (without a promise), rendered first if it is missing or of another revision; null if Next must answer this request itself. */
export function servePage(request: RawRequest, entry: PageEntry): MaybePromise<RawResponse | null> {
  const cached = state().pages.get(entry.key);
  if (cached && cached.revision === entry.revision) {
    state().hits++;
    store(cached);
    return respond(cached, request, entry, "hit");
  }
  state().misses++;
  entry.onRender?.();
  return renderOnce(entry.path, entry.key, entry.revision, entry.renderHeaders ?? {}).then((rendered) => {
    if (!rendered) return null;
    store(rendered);
    return respond(rendered, request, entry, "miss");
  });
}
