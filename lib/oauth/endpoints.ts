// What clients and the discovery documents see of the authorization server: its routes and its tokens'
// lifetimes. Kept apart from provider.ts, which loads oidc-provider (and Koa), so that the pages
// describing the service do not load the authorization server.

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Each refresh issues a new refresh token with a fresh lifetime, so a client in use stays connected. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;

/** Every oidc-provider route lives under /oauth/; discovery stays at the well-known paths. */
export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
  userinfo: "/oauth/userinfo",
  pushed_authorization_request: "/oauth/par",
  end_session: "/oauth/logout",
  introspection: "/oauth/introspect",
  code_verification: "/oauth/device",
  device_authorization: "/oauth/device/auth",
  backchannel_authentication: "/oauth/backchannel",
  challenge: "/oauth/challenge",
} as const;

export function consentPath(uid: string): string {
  return `/oauth/consent/${uid}`;
}
