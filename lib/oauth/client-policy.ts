import { getConfig, isLoopbackHost } from "@/lib/config";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** What one client may make htmldrop keep: registrations are anonymous, so each field and the whole are bounded. */
const CLIENT_LIMITS = { bytes: 8 * 1024, clientName: 200, text: 1000, listEntries: 10 } as const;

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "");
}

/**
 * Whether a URL reaches htmldrop itself (PUBLIC_URL's or CONTENT_ORIGIN's origin): a code sent there
 * lands on a page any drop's script can read. A trailing dot names the same host, and on a loopback
 * PUBLIC_URL every loopback name does.
 */
export function isHtmldropOrigin(url: URL): boolean {
  const { publicUrl, contentOrigin } = getConfig();
  const host = url.hostname.replace(/\.$/, "");
  return [publicUrl, contentOrigin].some((origin) => {
    const own = new URL(origin);
    const ownHost = own.hostname.replace(/\.$/, "");
    const sameHost = host === ownHost || (isLoopbackHost(host) && isLoopbackHost(ownHost));
    return sameHost && url.protocol === own.protocol && defaultPort(url) === defaultPort(own);
  });
}

/** What is wrong with one redirect URI of a public client, or null. */
export function redirectUriProblem(uri: string): string | null {
  const url = URL.parse(uri);
  const shown = uri.slice(0, 200);
  if (!url) return `redirect URI ${shown} is not a URL`;
  if (url.protocol === "http:" && !isLoopbackHttp(url)) {
    return `redirect URI ${shown} uses http on a host that is not loopback; use https, or http://127.0.0.1 for an app on this machine`;
  }
  if (isHtmldropOrigin(url)) return `redirect URI ${shown} is on htmldrop's own origin; an app must receive its codes on its own address`;
  return null;
}

/**
 * Public clients may redirect to https, to a loopback http listener (native apps, RFC 8252 §7.3) or
 * to an app's own scheme (cursor://, vscode://), never to htmldrop itself. Plain http to any other host
 * would hand codes to the network. Returns what is wrong, or null.
 */
export function publicClientRedirectProblem(redirectUris: readonly string[]): string | null {
  if (redirectUris.length === 0) return "redirect_uris must name at least one redirect URI";
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) return problem;
  }
  return null;
}

/** The size rules of a registration or a Client ID Metadata Document; returns what is wrong, or null. */
export function clientMetadataSizeProblem(metadata: Record<string, unknown>): string | null {
  if (Buffer.byteLength(JSON.stringify(metadata)) > CLIENT_LIMITS.bytes) return `client metadata is at most ${CLIENT_LIMITS.bytes} bytes`;
  for (const [field, value] of Object.entries(metadata)) {
    const maxText = field === "client_name" ? CLIENT_LIMITS.clientName : CLIENT_LIMITS.text;
    const texts = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && value.length > CLIENT_LIMITS.listEntries) return `${field.slice(0, 100)} lists at most ${CLIENT_LIMITS.listEntries} entries`;
    if (texts.some((text) => typeof text === "string" && text.length > maxText)) return `each ${field.slice(0, 100)} is at most ${maxText} characters`;
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
