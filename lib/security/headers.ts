import { getConfig } from "@/lib/config";

/**
 * Headers for the app's own pages. No form-action: sign-in forms post to /api/auth/* and redirect to the
 * identity provider, which form-action would block in some browsers. 'unsafe-inline' scripts are needed
 * by Next's inline bootstrap without per-request nonces; framing is limited to the drops' origin.
 */
export function appSecurityHeaders(): Record<string, string> {
  const { contentOrigin, publicUrl } = getConfig();
  const frameSources = contentOrigin === publicUrl ? "'self'" : `'self' ${contentOrigin}`;
  const policy = [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frameSources}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
  ].join("; ");
  return {
    "content-security-policy": policy,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
  };
}

/**
 * True for requests addressed to CONTENT_ORIGIN when it is a host of its own: there only raw drops are
 * served, so no page of the app (and no cookie of it) ever lives on the origin where user HTML runs.
 */
export function isDropsOnlyHost(host: string | null): boolean {
  const { contentOrigin, publicUrl } = getConfig();
  if (!host || contentOrigin === publicUrl) return false;
  const contentHost = new URL(contentOrigin).host;
  return host === contentHost && host !== new URL(publicUrl).host;
}

/**
 * A form POST from a page of this same host. Browsers send Origin on every POST; a request without one
 * does not come from another site's page.
 */
export function isSameOriginPost(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  try {
    return new URL(origin).host === request.headers.get("host");
  } catch {
    return false;
  }
}
