import "server-only";
import { getConfig } from "@/lib/config";
import { CALLBACK_URL_COOKIES, isSafeCallbackUrl } from "./callback-url";

type CookieSource = { get(name: string): { value: string } | undefined };

/** A cookie value as the URL it holds, whether or not the cookie reader already decoded it. */
function cookieUrl(value: string | undefined): string | undefined {
  if (value === undefined || /^(\/|https?:)/i.test(value)) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Where the app's sign-in pages send the browser afterwards, as a path of this site: the query's
 * callbackUrl, else next-auth's callback cookie, else `fallback`. Anything that is not this app's
 * URL is ignored, as next-auth's redirect callback would.
 */
export function callbackTarget(query: unknown, cookies: CookieSource, fallback: string): string {
  const baseUrl = new URL(getConfig().publicUrl).origin;
  const candidates = [typeof query === "string" ? query : undefined, ...CALLBACK_URL_COOKIES.map((name) => cookieUrl(cookies.get(name)?.value))];
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === "" || !isSafeCallbackUrl(candidate, baseUrl)) continue;
    const url = new URL(candidate, baseUrl);
    return `${url.pathname}${url.search}${url.hash}`;
  }
  return fallback;
}
