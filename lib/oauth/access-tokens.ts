// Up a floor, deliberately: the credential and scope vocabulary, beneath the bearer facade (accounts/tokens.ts) that imports this.
import { LAST_USED_RESOLUTION_MS, type Caller } from "@/lib/accounts/credentials";
import { parseStoredScopes } from "@/lib/accounts/scopes";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { oauthRecordKey } from "./record-key";
import { resourceUrl, type ResourceName } from "./resources";

/** Access tokens are 64 base64url characters (384 bits, lib/oauth/provider.ts); API tokens are at most 49. */
const ACCESS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{64}$/;

/**
 * `tokenId` is the grant's 12-hex id, as GET /api/tokens lists it. A grant reaches every drop and lasts
 * until revoked; its hourly access tokens are refreshed, so it has no expiry to hand on.
 */
export type OAuthCaller = Caller & { kind: "oauth"; drops: null; expiresAt: null };

type AccessTokenPayload = { accountId?: string; grantId?: string; scope?: string; aud?: string | string[]; exp?: number };

export function looksLikeAccessToken(token: string): boolean {
  return ACCESS_TOKEN_PATTERN.test(token);
}

/**
 * The resource-server half of OAuth: an access token is valid for `resource` when it is stored, not
 * expired on htmldrop's clock, issued for that resource (RFC 8707 audience) and its grant is still live.
 */
export async function authenticateAccessToken(token: string, resource: ResourceName): Promise<OAuthCaller> {
  const record = await db().oAuthRecord.findUnique({ where: { key: oauthRecordKey("AccessToken", token) }, select: { payload: true } });
  const payload = record ? (JSON.parse(record.payload) as AccessTokenPayload) : null;
  if (!payload?.accountId || !payload.grantId || typeof payload.exp !== "number") {
    throw new ApiError("unauthorized", "This access token is unknown or has been revoked; connect the app again.");
  }
  const at = now();
  if (payload.exp * 1000 <= at) {
    throw new ApiError("unauthorized", "This access token has expired; the app should use its refresh token or connect again.");
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(resourceUrl(resource))) {
    throw new ApiError("invalid_token", `This access token was issued for ${audiences.filter(Boolean).join(", ") || "another resource"}, not for ${resourceUrl(resource)}.`);
  }
  const grant = await db().oAuthGrant.findUnique({ where: { grantId: payload.grantId }, select: { id: true, userId: true, revokedAt: true, lastUsedAt: true } });
  if (!grant || grant.revokedAt || grant.userId !== payload.accountId) {
    throw new ApiError("unauthorized", "This connection has been revoked; connect the app again.");
  }
  if (!grant.lastUsedAt || at - grant.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db().oAuthGrant.update({ where: { id: grant.id }, data: { lastUsedAt: new Date(at) } });
  }
  return {
    userId: grant.userId,
    tokenId: grant.id,
    kind: "oauth",
    scopes: parseStoredScopes(payload.scope ?? ""),
    drops: null,
    expiresAt: null,
  };
}
