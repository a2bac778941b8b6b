// The ways to next-auth's sign-in and sign-out pages, free of next-auth itself: the raw path (server.ts,
// before Next) sends a browser to sign in too.

/**
 * The way to the sign-in page (app/signin), coming back to `callbackPath` (a path on this site) once
 * signed in. Through next-auth's endpoint, which issues the CSRF and callback cookies the page needs.
 */
export function signInPath(callbackPath: string): string {
  return `/api/auth/signin?callbackUrl=${encodeURIComponent(callbackPath)}`;
}

/** The way to the sign-out page (app/signout), likewise through next-auth; the callback rides in its cookie. */
export function signOutPath(callbackPath: string): string {
  return `/api/auth/signout?callbackUrl=${encodeURIComponent(callbackPath)}`;
}
