import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";

type CookieSource = { get(name: string): { value: string } | undefined };

// next-auth names the cookie with __Host- when NEXTAUTH_URL is https.
const CSRF_COOKIES = ["__Host-next-auth.csrf-token", "next-auth.csrf-token"];

/**
 * The CSRF token next-auth issued to this browser (its cookie holds `token|sha256(token + secret)`), for
 * the hidden field of the app's own sign-in and sign-out forms; null when the cookie is missing or was
 * not made with this secret. A server component cannot set cookies, so only next-auth's GET endpoints
 * (/api/auth/signin, /api/auth/signout) issue them.
 */
export function readCsrfToken(cookies: CookieSource, secret: string): string | null {
  for (const name of CSRF_COOKIES) {
    const value = cookies.get(name)?.value;
    if (!value) continue;
    const [token, hash] = decodeURIComponent(value).split("|");
    if (!token || !hash) continue;
    const expected = createHash("sha256").update(`${token}${secret}`).digest("hex");
    if (hash.length === expected.length && timingSafeEqual(Buffer.from(hash), Buffer.from(expected))) return token;
  }
  return null;
}
