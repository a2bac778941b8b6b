import { LOCAL_LOGIN_RULE } from "@/lib/schemas/accounts";

/**
 * next-auth's error codes (the `error` query of its redirects) in plain words. The sign-in page shows
 * the ones a retry can fix; the rest land on the error page. `Cookies` is the app's own: the sign-in
 * page found no CSRF cookie even after next-auth issued one.
 */
export const SIGN_IN_ERRORS = {
  CredentialsSignin: `That username was not accepted. ${LOCAL_LOGIN_RULE}`,
  OAuthSignin: "The sign-in provider could not be reached. Try again, or choose another way to sign in.",
  OAuthCallback: "The sign-in provider did not confirm who you are. Try again, or choose another way to sign in.",
  OAuthCreateAccount: "Your account could not be created. Try again in a moment.",
  OAuthAccountNotLinked: "This account is already linked to another sign-in method. Use the one you used before.",
  Callback: "Sign-in did not complete. Try again, or choose another way to sign in.",
  SessionRequired: "Sign in to continue.",
  Cookies: "Your browser did not keep htmldrop's sign-in cookie. Allow cookies for this site, then reload this page.",
  Signin: "Sign-in did not complete. Try again, or choose another way to sign in.",
} as const;

export const SIGN_IN_ERROR_PAGE_MESSAGES = {
  Configuration: "Sign-in did not complete: this server's sign-in is misconfigured or its provider cannot be reached. Try again later, or tell the person who runs it.",
  AccessDenied: "Sign-in did not complete: your account is not allowed to sign in here.",
  Verification: "Sign-in did not complete: this sign-in link has expired or was already used.",
  Default: "Sign-in did not complete. Try again, or choose another way to sign in.",
} as const;

type SignInErrorCode = keyof typeof SIGN_IN_ERRORS;
type ErrorPageCode = keyof typeof SIGN_IN_ERROR_PAGE_MESSAGES;

/** The sign-in page's message for an `error` query value, or null for none; unknown codes get the generic one. */
export function signInErrorMessage(code: unknown): string | null {
  if (typeof code !== "string" || code === "") return null;
  return Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code as SignInErrorCode] : SIGN_IN_ERRORS.Signin;
}

export function signInErrorPageMessage(code: unknown): string {
  return typeof code === "string" && Object.hasOwn(SIGN_IN_ERROR_PAGE_MESSAGES, code) ? SIGN_IN_ERROR_PAGE_MESSAGES[code as ErrorPageCode] : SIGN_IN_ERROR_PAGE_MESSAGES.Default;
}
