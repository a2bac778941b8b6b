import { NextResponse } from "next/server";
import { appSecurityHeaders } from "@/lib/security/headers";

/** Security headers for the app's pages, read from the runtime configuration (CONTENT_ORIGIN can change without a rebuild). */
export function proxy() {
  const response = NextResponse.next();
  for (const [name, value] of Object.entries(appSecurityHeaders())) response.headers.set(name, value);
  return response;
}

// Not the raw endpoint (user HTML carries its own sandbox policy and must be frameable), the JSON API or static assets.
export const config = {
  matcher: ["/((?!api/|mcp|_next/static|_next/image|p/[^/]+/raw).*)"],
};
