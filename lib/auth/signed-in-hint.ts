// A cookie that says only "this browser has a session", readable by scripts. A drop's public page is the
// same bytes for everyone (it is cached and shared), so it cannot say whether the reader owns the drop;
// with this hint, the page's script asks (app/p/[slug]/manage-link.tsx) only when someone is signed in,
// and a stranger's page costs no request. The hint is no credential: the answer reads the session itself.
// Imports nothing: proxy.ts and the viewer's client components both read it.

/** next-auth's session cookie: named after whether it is Secure, and split into `.0`, `.1`, ... when long. */
export const SESSION_COOKIE = /^((?:__Secure-)?next-auth\.session-token)(?:\.(\d+))?$/;

/** How long a session lasts without use (next-auth's `session.maxAge`); the hint lasts as long. */
export const SESSION_MAX_AGE_SECONDS = 7 * 86_400;

export const SIGNED_IN_HINT_COOKIE = "htmldrop-signed-in";

/** What proxy.ts does to the hint on a response, given the request's cookie names: the hint follows the session cookie. */
export function signedInHintChange(cookieNames: readonly string[]): "set" | "clear" | null {
  const session = cookieNames.some((name) => SESSION_COOKIE.test(name));
  const hint = cookieNames.includes(SIGNED_IN_HINT_COOKIE);
  if (session === hint) return null;
  return session ? "set" : "clear";
}

/** Whether `document.cookie` carries the hint. */
export function hasSignedInHint(cookieString: string): boolean {
  return cookieString.split(";").some((part) => part.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}
