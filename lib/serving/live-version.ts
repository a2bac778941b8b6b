// GET /p/<slug>/live.json: the number of a drop's latest version, which open viewers poll to say that a
// newer one is there. The one implementation behind the front door (npm start answers it before Next)
// and the route handler (Vercel). A public drop's answer is the same for every reader and carries a
// short shared-cache lifetime, so a CDN answers the crowd; the origin reads the drop's row on every
// request it does get, so a write shows on every instance at once, as the page cache's check does.
// Whoever the access decision would not show the drop's page to gets the 404 of a missing drop.
import { now } from "@/lib/clock";
import { CACHE_PRIVATE, decideAccess, dropStateOf, namesNothing } from "@/lib/drops/access-decision";
import { parsePublicPath, type PublicPath } from "@/lib/drops/public-urls";
import { ApiError, serviceUnavailable } from "@/lib/errors";
import type { LiveVersionJson } from "@/lib/schemas/serving";
import { viewerOn } from "@/lib/sharing/standing";
import { findViewerState, viewedDrop } from "./lookup";
import { header, matchesEtag, type RawRequest, type RawResponse } from "./raw";
import { robotsHeaders } from "./robots";
import { passcodeUnlock } from "./unlock";

const METHODS = "GET, HEAD";

function json(status: number, body: unknown, headers: Record<string, string>, head: boolean): RawResponse {
  const bytes = Buffer.from(JSON.stringify(body));
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "content-length": String(bytes.length), "x-content-type-options": "nosniff", ...robotsHeaders(false), ...headers },
    body: head ? null : bytes,
  };
}

function failure(error: ApiError, headers: Record<string, string> = {}, status = error.status): RawResponse {
  const retryAfter = error.retryAfterSeconds;
  return json(status, error.toBody(), { "cache-control": CACHE_PRIVATE, ...(retryAfter ? { "retry-after": String(retryAfter) } : {}), ...headers }, false);
}

/** Missing, expired, locked and not unlocked, or not for this reader: all the same answer. */
function notFound(): RawResponse {
  return failure(new ApiError("not_found", "There is no drop at this address."));
}

/** Vercel's route handler passes an absolute URL; the front door passes the target it parsed to route the request. */
export async function serveLiveVersion(request: RawRequest, path: PublicPath | null = parsePublicPath(request.url)): Promise<RawResponse> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return failure(new ApiError("invalid_arg", `${request.method} is not supported here; use GET.`, { allow: METHODS.split(", ") }), { allow: METHODS }, 405);
  }
  if (path?.route !== "live" || namesNothing(path)) return notFound();
  const slug = path.slug!;
  try {
    const drop = await findViewerState(slug);
    const cookieHeader = header(request.headers, "cookie");
    const viewer = await viewerOn(drop && viewedDrop(drop), { slug, cookieHeader }, passcodeUnlock(slug, drop?.passcodeHash ?? null, cookieHeader));
    const decision = decideAccess(path, drop && dropStateOf(drop), viewer, now());
    if (decision.answer !== "serve" || drop === null) return notFound();
    const etag = `"live-${drop.latestVersion}"`;
    const headers = { "cache-control": decision.cacheControl!, etag };
    if (matchesEtag(header(request.headers, "if-none-match"), `live-${drop.latestVersion}`)) return { status: 304, headers, body: null };
    const body: LiveVersionJson = { latest_version: drop.latestVersion };
    return json(200, body, headers, request.method === "HEAD");
  } catch (error) {
    console.error("htmldrop: live version request failed", error);
    return failure(serviceUnavailable("The drop's version cannot be read right now.", 5));
  }
}
