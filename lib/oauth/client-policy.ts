const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Public clients may redirect to https, to a loopback http listener (native apps, RFC 8252 §7.3) or
 * to an app's own scheme (cursor://, vscode://). Plain http to any other host would hand codes to the
 * network. Returns what is wrong, or null.
 */
export function publicClientRedirectProblem(redirectUris: readonly string[]): string | null {
  if (redirectUris.length === 0) return "redirect_uris must name at least one redirect URI";
  for (const uri of redirectUris) {
    const url = URL.parse(uri);
    if (!url) return `redirect URI ${uri.slice(0, 200)} is not a URL`;
    if (url.protocol === "http:" && !isLoopbackHttp(url)) {
      return `redirect URI ${uri.slice(0, 200)} uses http on a host that is not loopback; use https, or http://127.0.0.1 for an app on this machine`;
    }
  }
  return null;
}

/**
 * Loopback and app-scheme redirects are what native apps use, and only native clients may use any
 * port on loopback (oidc-provider follows RFC 8252 there). A registration that leaves the type out gets it.
 */
export function defaultApplicationType(redirectUris: readonly string[]): "native" | "web" {
  return redirectUris.some((uri) => {
    const url = URL.parse(uri);
    return url !== null && (isLoopbackHttp(url) || !["http:", "https:"].includes(url.protocol));
  })
    ? "native"
    : "web";
}
