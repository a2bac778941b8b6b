// GET /p/<slug>/raw: the one implementation behind both the Next route handler (Vercel) and the custom
// server's fast path (server.ts), so the hot path skips Next's request pipeline without a second copy.
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { type AccessDecision, CACHE_PRIVATE, decideAccess, dropStateOf, namesNothing } from "@/lib/drops/access-decision";
import { parsePublicPath, publicUrl, viewerPath, type PublicPath } from "@/lib/drops/public-urls";
import { findServedVersion, type ServedVersion, viewedDrop } from "./lookup";
import { andThen, type MaybePromise, recovering } from "./maybe-async";
import { robotsHeaders } from "./robots";
import { type HeaderSets, keptHeaders, mergeHeaders } from "./merge-headers";
import { encodedBody, getServedDocument, MIN_COMPRESSIBLE_BYTES, type Encoding } from "./served-documents";
import { viewerOn } from "@/lib/sharing/standing";
import { signInPath } from "@/lib/auth/paths";
import { passcodeUnlock } from "./unlock";

export type RawRequest = { method: string; url: string; headers: Record<string, string | string[] | undefined> };
export type RawResponse = { status: number; headers: Record<string, string>; body: Buffer | null };

/** The sandbox every drop runs in: scripts, forms, popups and dialogs, never the origin's privileges. */
export const DROP_SANDBOX = "allow-scripts allow-forms allow-popups allow-modals";

const SECURITY_HEADERS = {
  "content-security-policy": `sandbox ${DROP_SANDBOX}`,
  "x-content-type-options": "nosniff",
  // Keeps the iframe's unlock token (and the drop's address) out of requests to third-party resources.
  "referrer-policy": "no-referrer",
};
/** An answer's body as a web Response takes it, without a copy. */
export function webBody(body: Buffer | null): Uint8Array<ArrayBuffer> | null {
  return body && new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length);
}

/** For the route handlers that serve these answers on Vercel, where server.ts does not run. */
export function toWebResponse(result: RawResponse): Response {
  return new Response(webBody(result.body), { status: result.status, headers: result.headers });
}

export function header(headers: RawRequest["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * A plain page in the browser's own colors, light or dark as the reader prefers, framed as the app's
 * own error pages are (app/_components/page-frame.tsx): the brand as the way home, then the heading.
 */
function page(status: number, title: string, html: string, cacheControl = "no-store"): RawResponse {
  const home = `${getConfig().publicUrl}/`.replaceAll('"', "%22");
  const brand = `<a href="${home}" style="display:inline-block;padding:0.25rem 0;font-weight:700;font-size:1.1rem;color:inherit;text-decoration:none">htmldrop</a>`;
  const body = Buffer.from(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${title} · htmldrop</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5;margin:0 auto;max-width:26rem;padding:1.5rem 1rem"><main>${brand}${html}</main></body></html>`,
  );
  return {
    status,
    headers: { ...SECURITY_HEADERS, ...robotsHeaders(false), "content-type": "text/html; charset=utf-8", "cache-control": cacheControl, "content-length": String(body.length) },
    body,
  };
}

/** To sign in on the app's own site, then back to the drop's viewer page (which frames this raw page). */
export function signInRedirect(slug: string): RawResponse {
  const location = `${getConfig().publicUrl}${signInPath(viewerPath(slug))}`;
  return { status: 303, headers: { ...SECURITY_HEADERS, ...robotsHeaders(false), location, "cache-control": CACHE_PRIVATE }, body: null };
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

type ServedAnswer = { tag: string; encoding: Encoding; indexable: boolean; cacheControl: string };

// A few sets for each hot document: its encodings, the 304, and the cache lifetimes in use.
const RAW_HEADER_SETS = 256;
const headerSets: HeaderSets = new Map();

/** The headers of a document's answer (`length` null: a 304's), shared by every answer they fit. */
function servedHeaders({ tag, encoding, indexable, cacheControl }: ServedAnswer, length: number | null): Readonly<Record<string, string>> {
  return keptHeaders(headerSets, `${tag} ${encoding} ${length} ${indexable} ${cacheControl}`, RAW_HEADER_SETS, () => {
    const etag = encoding === "br" ? `"${tag}-br"` : encoding === "gzip" ? `"${tag}-gz"` : `"${tag}"`;
    const body: Record<string, string> = length === null ? {} : { ...(encoding === "identity" ? {} : { "content-encoding": encoding }), "content-length": String(length) };
    return mergeHeaders(SECURITY_HEADERS, robotsHeaders(indexable), { "content-type": "text/html; charset=utf-8", "cache-control": cacheControl, etag, vary: "Accept-Encoding" }, body);
  });
}

/**
 * Without a promise when the lookup is synchronous (SQLite) and the document is already built. The front
 * door passes the target it parsed to route the request.
 */
export function serveRaw(request: RawRequest, path = parsePublicPath(request.url)): MaybePromise<RawResponse> {
  return recovering(
    () => respond(request, path),
    (error) => {
      console.error("htmldrop: raw request failed", error);
      return page(500, "Error", "<h1>Something went wrong</h1><p>Try again in a moment.</p>");
    },
  );
}

function respond(request: RawRequest, path: PublicPath | null): MaybePromise<RawResponse> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    const response = page(405, "Method not allowed", "<h1>Method not allowed</h1>");
    return { ...response, headers: { ...response.headers, allow: "GET, HEAD" } };
  }
  if (path?.route !== "raw" || namesNothing(path)) return notFound();
  const slug = path.slug!;
  const pinned = typeof path.version === "number" ? path.version : null;
  return andThen(findServedVersion(slug, pinned), (found) => {
    const cookieHeader = header(request.headers, "cookie");
    const unlock = passcodeUnlock(slug, found?.passcodeHash ?? null, cookieHeader, path.query.get("unlock"));
    return andThen(viewerOn(found && viewedDrop(found), { slug, cookieHeader, pass: path.query.get("pass") }, unlock), (viewer) => decided(request, slug, found, decideAccess(path, found && dropStateOf(found, found.blobSha !== null), viewer, now())));
  });
}

function decided(request: RawRequest, slug: string, found: ServedVersion | null, decision: AccessDecision): MaybePromise<RawResponse> {
  if (decision.answer === "expired") return expiredPage();
  if (decision.answer === "sign_in") return signInRedirect(slug);
  if (decision.answer === "gate") {
    const viewerUrl = publicUrl(getConfig().publicUrl, slug);
    return page(403, "Locked", `<h1>This drop is locked</h1><p>Open <a href="${viewerUrl}" target="_blank" rel="noopener">${viewerUrl}</a> and enter its passcode.</p>`, CACHE_PRIVATE);
  }
  const blobSha = found?.blobSha;
  if (decision.answer !== "serve" || blobSha == null) return notFound();
  return andThen(getServedDocument(blobSha), (document) => {
    if (!document) return notFound();
    const encoding = document.size >= MIN_COMPRESSIBLE_BYTES ? acceptedEncoding(header(request.headers, "accept-encoding")) : "identity";
    const described = { tag: document.tag, encoding, indexable: decision.indexable, cacheControl: decision.cacheControl! };
    if (matchesEtag(header(request.headers, "if-none-match"), document.tag)) {
      return { status: 304, headers: servedHeaders(described, null), body: null };
    }
    const answer = (body: Buffer): RawResponse => ({ status: 200, headers: servedHeaders(described, body.length), body: request.method === "HEAD" ? null : body });
    return encoding === "identity" ? answer(document.identity()) : encodedBody(blobSha, document, encoding).then(answer);
  });
}
