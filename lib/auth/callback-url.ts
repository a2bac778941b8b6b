/**
 * Where a sign-in may send the browser afterwards (next-auth's callbackUrl): a path or a URL of this
 * app. Anything else, another site or a value that is not a URL at all, means the home page: next-auth
 * would answer a malformed one with a 500, and following a foreign one would be an open redirect.
 */
function ownUrl(value: string, baseUrl: string): URL | null {
  try {
    const url = new URL(value, value.startsWith("/") ? baseUrl : undefined);
    // A path with a broken percent-escape leads to an error page, not to a page of the app.
    decodeURIComponent(url.pathname);
    return url.origin === new URL(baseUrl).origin ? url : null;
  } catch {
    return null;
  }
}

export function safeCallbackUrl(value: string, baseUrl: string): string {
  return (ownUrl(value, baseUrl) ?? new URL("/", baseUrl)).href;
}

export function isSafeCallbackUrl(value: string, baseUrl: string): boolean {
  return ownUrl(value, baseUrl) !== null;
}

/** The cookie in which next-auth keeps the callbackUrl between the sign-in page and the provider's return. */
export const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"];
