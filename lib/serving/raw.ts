// GET /p/<slug>/raw: the one implementation behind both the Next route handler (Vercel) and the custom
// server's fast path (server.ts), so the hot path skips Next's request pipeline without a second copy.
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { isExpired } from "@/lib/drops/expiry";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { findServedVersion } from "./lookup";
import { mayIndex, robotsHeaders } from "./robots";
import { encodedBody, getServedDocument, MIN_COMPRESSIBLE_BYTES, type Encoding } from "./served-documents";
import { hasValidUnlockCookie, verifyFrameToken } from "./unlock";

export type RawRequest = { method: string; url: string; headers: Record<string, string | string[] | undefined> };
/** The body comes in parts: a drop's served bytes are its stored bytes with the block between, never copied into one buffer. */
export type RawResponse = { status: number; headers: Record<string, string>; body: Buffer[] | null };

/** The sandbox every drop runs in: scripts, forms, popups and dialogs, never the origin's privileges. */
export const DROP_SANDBOX = "allow-scripts allow-forms allow-popups allow-modals";

const SECURITY_HEADERS = {
  "content-security-policy": `sandbox ${DROP_SANDBOX}`,
  "x-content-type-options": "nosniff",
  // Keeps the iframe's unlock token (and the drop's address) out of requests to third-party resources.
  "referrer-policy": "no-referrer",
};
// A version's bytes never change, but whether they may be served does (a passcode set later, a deleted
// version or drop). Shared caches therefore keep a pinned version one minute and then revalidate (a
// cheap 304 by ETag while it is still public), so a lock or delete reaches every CDN within about two
// minutes; a viewer's own browser may keep what it already saw for five.
export type CachePolicy = { maxAge: number; sMaxAge: number; staleWhileRevalidate: number };
export const CACHE_PINNED: CachePolicy = { maxAge: 300, sMaxAge: 60, staleWhileRevalidate: 60 };
export const CACHE_LATEST: CachePolicy = { maxAge: 0, sMaxAge: 10, staleWhileRevalidate: 60 };
export const CACHE_PRIVATE = "private, no-store";

/**
 * A public answer's Cache-Control. For a drop that expires, every lifetime is cut so that no cache,
 * shared or not, may serve it (fresh or stale) past the expiry: s-maxage plus stale-while-revalidate
 * and max-age end by then.
 */
export function publicCacheControl(policy: CachePolicy, expiresAt: number | null, at: number): string {
  const left = expiresAt === null ? Infinity : Math.floor((expiresAt - at) / 1000);
  if (left <= 0) return "no-store";
  const sMaxAge = Math.min(policy.sMaxAge, left);
  const staleWhileRevalidate = Math.min(policy.staleWhileRevalidate, left - sMaxAge);
  return `public, max-age=${Math.min(policy.maxAge, left)}, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate}`;
}

const RAW_PATH = /^\/p\/([^/?#]*)\/raw\/?(?:\?([^#]*))?(?:#.*)?$/;
const VERSION_PARAM = /^[1-9][0-9]{0,8}$/;

/** Whether a request target is the raw endpoint (server.ts answers those before Next). */
export function isRawPath(url: string | undefined): boolean {
  return url !== undefined && url.startsWith("/p/") && RAW_PATH.test(url);
}

/** For the route handlers that serve these answers on Vercel, where server.ts does not run. */
export function toWebResponse(result: RawResponse): Response {
  const body = result.body ? new Blob(result.body.map((part) => new Uint8Array(part.buffer as ArrayBuffer, part.byteOffset, part.length))) : null;
  return new Response(body, { status: result.status, headers: result.headers });
}

export function header(headers: RawRequest["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function page(status: number, title: string, html: string, cacheControl = "no-store"): RawResponse {
  const body = Buffer.from(`<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;padding:1rem">${html}</body></html>`);
  return {
    status,
    headers: { ...SECURITY_HEADERS, ...robotsHeaders(false), "content-type": "text/html; charset=utf-8", "cache-control": cacheControl, "content-length": String(body.length) },
    body: [body],
  };
}

export function notFound(): RawResponse {
  return page(404, "Not found", "<h1>Not found</h1><p>There is no drop or version at this address.</p>");
}

/** After a drop's expiry: nothing of the drop, not even its title. Not cached, as the owner may extend it. */
export function expiredPage(): RawResponse {
  return page(410, "Link expired", "<h1>This link has expired</h1><p>Whoever shared it set it to stop working. Ask them for a new link.</p>");
}

/** The best encoding among `offered` that Accept-Encoding allows. */
export function acceptedEncoding(acceptEncoding: string | undefined, offered: readonly Encoding[] = ["br", "gzip"]): Encoding {
  if (!acceptEncoding) return "identity";
  let gzip = false;
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name = "", ...params] = part.split(";").map((piece) => piece.trim());
    const refused = params.some((param) => /^q=0(\.0*)?$/.test(param));
    if (refused) continue;
    if (name === "br" && offered.includes("br")) return "br";
    if (name === "gzip" || name === "x-gzip") gzip = true;
  }
  return gzip && offered.includes("gzip") ? "gzip" : "identity";
}

/** If-None-Match uses the weak comparison: any encoding of the same bytes matches. */
export function matchesEtag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((candidate) => {
    const value = candidate.trim().replace(/^W\//, "");
    return value === "*" || value === `"${tag}"` || value === `"${tag}-br"` || value === `"${tag}-gz"`;
  });
}

function parseTarget(url: string): { slug: string; query: URLSearchParams } | null {
  const path = url.startsWith("/") ? url : url.slice(url.indexOf("/", url.indexOf("//") + 2));
  const match = RAW_PATH.exec(path);
  return match ? { slug: decodeURIComponentSafe(match[1]!), query: new URLSearchParams(match[2] ?? "") } : null;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return "";
  }
}

export async function serveRaw(request: RawRequest): Promise<RawResponse> {
  try {
    return await respond(request);
  } catch (error) {
    console.error("htmldrop: raw request failed", error);
    return page(500, "Error", "<h1>Something went wrong</h1><p>Try again in a moment.</p>");
  }
}

async function respond(request: RawRequest): Promise<RawResponse> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    const response = page(405, "Method not allowed", "<h1>Method not allowed</h1>");
    return { ...response, headers: { ...response.headers, allow: "GET, HEAD" } };
  }
  const target = parseTarget(request.url);
  if (!target || !SLUG_PATTERN.test(target.slug)) return notFound();
  const { slug, query } = target;
  const versionParam = query.get("v");
  if (versionParam !== null && !VERSION_PARAM.test(versionParam)) return notFound();

  const found = await findServedVersion(slug, versionParam === null ? null : Number(versionParam));
  if (!found) return notFound();
  const at = now();
  if (isExpired(found.expiresAt, at)) return expiredPage();
  if (found.passcodeHash !== null) {
    const unlocked =
      hasValidUnlockCookie(slug, found.passcodeHash, header(request.headers, "cookie")) || verifyFrameToken(slug, found.passcodeHash, query.get("unlock"));
    if (!unlocked) {
      const viewer = `${getConfig().publicUrl}/p/${slug}`;
      return page(403, "Locked", `<h1>This drop is locked</h1><p>Open <a href="${viewer}" target="_blank" rel="noopener">${viewer}</a> and enter its passcode.</p>`, CACHE_PRIVATE);
    }
  }
  if (found.blobSha === null) return notFound();
  const document = await getServedDocument(found.blobSha);
  if (!document) return notFound();

  const cacheControl = found.passcodeHash !== null ? CACHE_PRIVATE : publicCacheControl(versionParam !== null ? CACHE_PINNED : CACHE_LATEST, found.expiresAt, at);
  const encoding = document.size >= MIN_COMPRESSIBLE_BYTES ? acceptedEncoding(header(request.headers, "accept-encoding")) : "identity";
  const etag = encoding === "br" ? `"${document.tag}-br"` : encoding === "gzip" ? `"${document.tag}-gz"` : `"${document.tag}"`;
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    ...robotsHeaders(mayIndex(found)),
    "content-type": "text/html; charset=utf-8",
    "cache-control": cacheControl,
    etag,
    vary: "Accept-Encoding",
  };
  if (matchesEtag(header(request.headers, "if-none-match"), document.tag)) {
    return { status: 304, headers, body: null };
  }
  const body = encoding === "identity" ? document.identity : [await encodedBody(found.blobSha, document, encoding)];
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  headers["content-length"] = String(body.reduce((total, part) => total + part.length, 0));
  return { status: 200, headers, body: request.method === "HEAD" ? null : body };
}
