import { NextResponse, type NextRequest } from "next/server";
import { SESSION_MAX_AGE_SECONDS, SIGNED_IN_HINT_COOKIE, signedInHintChange } from "@/lib/auth/signed-in-hint";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { appSecurityHeaders, isDropsOnlyHost } from "@/lib/security/headers";
import { isPublicFilePath, PUBLIC_FILE_METHODS, PUBLIC_FILE_UNSERVED_HEADERS } from "@/lib/serving/public-files";
import { webBody } from "@/lib/serving/raw";
import { NOINDEX, ROBOTS_HEADER } from "@/lib/serving/robots";
import { isInternalPagePath, isPublicRouteHandlerPath, isUnderDropPrefix } from "@/lib/drops/public-urls";
import { DROP_PAGE_URL_HEADER, routeViewerRequest } from "@/lib/serving/shared-pages";

// Route handlers among the paths below answer every method themselves. Pages take GET, HEAD and POST
// (server actions); for anything else Next.js would answer OPTIONS with an empty 400 and render the
// page for PUT or DELETE.
const ROUTE_HANDLER = /^\/(api\/|oauth\/(?!consent\/)|\.well-known\/|openapi\.json$|llms\.txt$|metrics$)/;
const PAGE_METHODS = ["GET", "HEAD", "POST"];

function pageMethodRefusal(request: NextRequest): NextResponse | null {
  const { pathname } = request.nextUrl;
  if (isPublicFilePath(pathname)) return PUBLIC_FILE_METHODS.includes(request.method) ? null : methodNotAllowed(request.method, "a file", PUBLIC_FILE_METHODS);
  if (PAGE_METHODS.includes(request.method) || ROUTE_HANDLER.test(pathname) || isPublicRouteHandlerPath(pathname)) return null;
  return methodNotAllowed(request.method, "a page", PAGE_METHODS);
}

function methodNotAllowed(method: string, what: string, allowed: string[]): NextResponse {
  const error = new ApiError("invalid_arg", `${method} is not supported on ${what}; use ${allowed.join(" or ")}.`, { allow: allowed });
  return NextResponse.json(error.toBody(), { status: 405, headers: { allow: allowed.join(", "), "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });
}

function notFound(): NextResponse {
  return new NextResponse("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

function withoutHeaders(request: NextRequest, names: string[]): Headers {
  const headers = new Headers(request.headers);
  for (const name of names) headers.delete(name);
  return headers;
}

/** The request's headers with the page's own URL, for app/p/[slug]/not-found.tsx. */
function withDropPageUrl(request: NextRequest, url: string): Headers {
  const headers = new Headers(request.headers);
  headers.set(DROP_PAGE_URL_HEADER, url);
  return headers;
}

async function route(request: NextRequest): Promise<NextResponse> {
  const { pathname, search } = request.nextUrl;
  if (isDropsOnlyHost(request.headers.get("host")) || isInternalPagePath(pathname)) return notFound();
  const refusal = pageMethodRefusal(request);
  if (refusal) return refusal;
  if (isPublicFilePath(pathname)) return NextResponse.next({ request: { headers: withoutHeaders(request, PUBLIC_FILE_UNSERVED_HEADERS) } });
  const viewer = await routeViewerRequest(request.method, pathname, search, request.headers.get("cookie"));
  if (viewer !== null && "answer" in viewer) {
    const { status, headers, body } = viewer.answer;
    return new NextResponse(webBody(body), { status, headers });
  }
  if (viewer !== null && "missing" in viewer) {
    const missing = NextResponse.rewrite(new URL(viewer.missing, request.url), { status: 404 });
    missing.headers.set(ROBOTS_HEADER, NOINDEX);
    return missing;
  }
  const passOn = isUnderDropPrefix(pathname) ? { request: { headers: withDropPageUrl(request, `${pathname}${search}`) } } : undefined;
  if (viewer === null) return NextResponse.next(passOn);
  const response = viewer.rewrite ? NextResponse.rewrite(new URL(viewer.rewrite, request.url)) : NextResponse.next(passOn);
  if (!viewer.indexable) response.headers.set(ROBOTS_HEADER, NOINDEX);
  return response;
}

/**
 * Keeps the signed-in hint (lib/auth/signed-in-hint.ts) in step with the session cookie. Never on a drop's
 * pages, whose responses shared caches may keep: a Set-Cookie there is no shared page's business.
 */
function syncSignedInHint(request: NextRequest, response: NextResponse): void {
  if (isUnderDropPrefix(request.nextUrl.pathname)) return;
  const change = signedInHintChange(request.cookies.getAll().map((cookie) => cookie.name));
  if (change === "clear") response.cookies.delete(SIGNED_IN_HINT_COOKIE);
  if (change === "set") {
    const secure = getConfig().publicUrl.startsWith("https:");
    response.cookies.set(SIGNED_IN_HINT_COOKIE, "1", { path: "/", sameSite: "lax", secure, maxAge: SESSION_MAX_AGE_SECONDS });
  }
}

/**
 * Security headers for the app's pages and next-auth's, read from the runtime configuration
 * (CONTENT_ORIGIN can change without a rebuild). On the drops' own origin, only drops are served.
 * An expired drop's viewer answers 410; on Vercel, a public drop's viewer is rewritten to its shared
 * cached page (lib/serving/shared-pages.ts); a viewer page carries X-Robots-Tag: noindex unless its
 * owner opted in; the signed-in hint follows the session cookie.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const response = await route(request);
  syncSignedInHint(request, response);
  for (const [name, value] of Object.entries(appSecurityHeaders())) response.headers.set(name, value);
  return response;
}

// Not the raw endpoint (user HTML carries its own sandbox policy and must be frameable), the pattern
// catalog (its templates carry a stricter sandbox policy of their own), the JSON API (it sets its own
// headers, and a proxy would buffer its uploads) or static assets; next-auth's pages are in. Next reads
// the matcher without running this file, so the raw page's path is spelled here and not built.
export const config = {
  matcher: ["/((?!api/(?!auth/)|mcp|_next/static|_next/image|p/[^/]+/raw|\\.well-known/patterns/).*)"],
};
