import { NextResponse, type NextRequest } from "next/server";
import { appSecurityHeaders, isDropsOnlyHost } from "@/lib/security/headers";

/**
 * Security headers for the app's pages and next-auth's, read from the runtime configuration
 * (CONTENT_ORIGIN can change without a rebuild). On the drops' own origin, only drops are served.
 */
export function proxy(request: NextRequest) {
  const response = isDropsOnlyHost(request.headers.get("host")) ? new NextResponse("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } }) : NextResponse.next();
  for (const [name, value] of Object.entries(appSecurityHeaders())) response.headers.set(name, value);
  return response;
}

// Not the raw endpoint (user HTML carries its own sandbox policy and must be frameable), the JSON API
// (it sets its own headers, and a proxy would buffer its uploads) or static assets; next-auth's pages are in.
export const config = {
  matcher: ["/((?!api/(?!auth/)|mcp|_next/static|_next/image|p/[^/]+/raw).*)"],
};
