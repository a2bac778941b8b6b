import type { Account, AuthOptions, Profile, Session, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GithubProvider from "next-auth/providers/github";
import type { OAuthConfig, Provider } from "next-auth/providers/index";
import { findOrCreateUserForIdentity, LOCAL_PROVIDER, type IdentityInput } from "@/lib/accounts/users";
import { getConfig } from "@/lib/config";
import { claimInvitations } from "@/lib/sharing/invitations";
import { localLoginSchema } from "@/lib/schemas/accounts";
import { safeCallbackUrl } from "./callback-url";
import { isLoopbackHeaderRecord } from "./loopback";
import { SESSION_MAX_AGE_SECONDS } from "./signed-in-hint";

export const SIGN_IN_PAGE = "/signin";
export const SIGN_OUT_PAGE = "/signout";
export const SIGN_IN_ERROR_PAGE = "/signin/error";

export type SignInMethod = { id: "github" | "oidc" | "credentials"; name: string };

/**
 * The sign-in methods this instance offers to a request. The local username sign-in exists only when
 * the config enables it (never in production) and only for requests addressed to a loopback host.
 */
export function signInMethods(options: { loopbackHost: boolean }): SignInMethod[] {
  const { auth } = getConfig();
  const methods: SignInMethod[] = [];
  if (auth.github) methods.push({ id: "github", name: "GitHub" });
  if (auth.oidc) methods.push({ id: "oidc", name: auth.oidc.name });
  if (auth.devLogin && options.loopbackHost) methods.push({ id: "credentials", name: "local username (development)" });
  return methods;
}

type OidcProfile = Profile & { sub: string; preferred_username?: string; nickname?: string; name?: string; email?: string };

function oidcProvider(oidc: NonNullable<ReturnType<typeof getConfig>["auth"]["oidc"]>): OAuthConfig<OidcProfile> {
  return {
    id: "oidc",
    name: oidc.name,
    type: "oauth",
    wellKnown: `${oidc.issuer}/.well-known/openid-configuration`,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    // email: invitations by email and ORG_EMAIL_DOMAINS match only an address the provider verified.
    authorization: { params: { scope: "openid profile email" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile: (profile) => ({ id: profile.sub, name: profile.preferred_username ?? profile.nickname ?? profile.name ?? profile.sub, email: profile.email ?? null, image: null }),
  };
}

function localProvider(): Provider {
  return CredentialsProvider({
    id: "credentials",
    name: "a local username",
    credentials: { username: { label: "Username", type: "text", placeholder: "alice" } },
    authorize: (credentials, request) => {
      // Checked here as well as when the provider list is built: a request must never sign in from afar.
      if (!getConfig().auth.devLogin || !isLoopbackHeaderRecord(request.headers)) return null;
      const username = localLoginSchema.safeParse(credentials?.username ?? "");
      if (!username.success) return null;
      return { id: username.data.toLowerCase(), name: username.data };
    },
  });
}

/** Maps a completed sign-in to the identity that names one htmldrop account. */
function identityOf(account: Account, profile: Profile | undefined, user: User): IdentityInput {
  if (account.provider === "credentials") return { provider: LOCAL_PROVIDER, providerAccountId: user.id.toLowerCase(), login: user.name ?? user.id };
  if (account.provider === "github") {
    const login = (profile as { login?: unknown } | undefined)?.login;
    return { provider: "github", providerAccountId: account.providerAccountId, login: typeof login === "string" ? login : (user.name ?? null) };
  }
  const claims = (profile ?? {}) as Record<string, unknown>;
  const email = claims.email_verified === true && typeof claims.email === "string" ? claims.email.toLowerCase() : null;
  return { provider: account.provider, providerAccountId: account.providerAccountId, login: user.name ?? null, email, orgClaimValues: orgClaimValues(claims) };
}

/** ORG_OIDC_CLAIM's claim in the provider's claims, a string or a list of strings; null when absent or of another shape. */
function orgClaimValues(claims: Record<string, unknown>): string[] | null {
  const setting = getConfig().sharing.org?.oidcClaim;
  const value = setting ? claims[setting.claim] : undefined;
  if (typeof value === "string") return [value];
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : null;
}

/** next-auth builds every absolute URL (callbacks, redirects) from NEXTAUTH_URL: PUBLIC_URL unless the operator set it. */
function setDefaultNextAuthUrl(): string {
  return (process.env.NEXTAUTH_URL ??= getConfig().publicUrl);
}

/** The origin of every absolute URL next-auth builds. */
export function nextAuthOrigin(): string {
  return new URL(setDefaultNextAuthUrl()).origin;
}

/** next-auth's options for one request; JWT sessions carry the htmldrop user id, login and provider. */
export function getAuthOptions(options: { loopbackHost: boolean } = { loopbackHost: false }): AuthOptions {
  const config = getConfig();
  setDefaultNextAuthUrl();
  const providers: Provider[] = [];
  if (config.auth.github) {
    providers.push(GithubProvider({ ...config.auth.github, authorization: { params: { scope: "read:user" } } }));
  }
  if (config.auth.oidc) providers.push(oidcProvider(config.auth.oidc));
  if (config.auth.devLogin && options.loopbackHost) providers.push(localProvider());

  return {
    secret: config.authSecret,
    providers,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    // The app's own pages (app/signin, app/signout): next-auth's GET /api/auth/signin and /signout set
    // the CSRF and callback cookies, then redirect there; its error page would answer with the status
    // of the failure it describes (500 for a misconfigured provider), so failures land on /signin/error.
    pages: { signIn: SIGN_IN_PAGE, signOut: SIGN_OUT_PAGE, error: SIGN_IN_ERROR_PAGE },
    callbacks: {
      // Unlike next-auth's default, never throws on a malformed URL and refuses `//other.site`.
      redirect: ({ url, baseUrl }) => safeCallbackUrl(url, baseUrl),
      async jwt({ token, account, profile, user }) {
        if (account && user) {
          const identity = identityOf(account, profile, user);
          const owner = await findOrCreateUserForIdentity(identity);
          await claimInvitations(owner.id, identity);
          token.userId = owner.id;
          token.login = identity.login ?? owner.login;
          token.provider = identity.provider;
        }
        return token;
      },
      session({ session, token }) {
        const user = { userId: token.userId, login: token.login ?? null, provider: token.provider };
        return { ...session, user } as unknown as Session;
      },
    },
  };
}
