import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { authenticateAccessToken, looksLikeAccessToken } from "@/lib/oauth/access-tokens";
import { listGrants, revokeGrant, type GrantRow } from "@/lib/oauth/grants";
import type { ResourceName } from "@/lib/oauth/resources";
import type { MeJson, TokenListItemJson, TokenSummaryJson } from "@/lib/schemas/accounts";
import { bearerCredential, hashSecret, mintToken, storedTokenHashes, tokenIdFromHash, tokenSecret } from "@/lib/security/tokens";
import { formatStoredDrops, formatStoredScopes, parseStoredDrops, parseStoredScopes, SCOPES, type Scope } from "./scopes";

/** last_used_at is refreshed at most this often, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who is calling, and what the credential lets it do. Every door (REST, MCP) authenticates into this
 * and checks it with lib/accounts/scopes.ts. `tokenId` is an API token's id, or an OAuth grant's id.
 */
export type Caller = {
  userId: string;
  tokenId: string;
  kind: "api_token" | "oauth";
  scopes: readonly Scope[];
  /** The only drops the credential may touch; null = every drop of the account. */
  drops: readonly string[] | null;
  expiresAt: number | null;
};

/** What a credential may do: the part of a Caller that is handed on to the tokens it creates. */
export type Grant = Pick<Caller, "scopes" | "drops" | "expiresAt">;

/** Today's tokens, the admin command's and the device flow's defaults: everything, for every drop, forever. */
export const FULL_GRANT: Grant = { scopes: SCOPES, drops: null, expiresAt: null };

type TokenRow = {
  id: string;
  label: string | null;
  scopes: string;
  drops: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
};

function toSummary(token: TokenRow): TokenSummaryJson {
  return {
    id: token.id,
    label: token.label,
    created_at: token.createdAt.getTime(),
    last_used_at: token.lastUsedAt?.getTime() ?? null,
    scopes: parseStoredScopes(token.scopes),
    drops: parseStoredDrops(token.drops),
    expires_at: token.expiresAt?.getTime() ?? null,
  };
}

function toListItem(token: TokenRow): TokenListItemJson {
  return { ...toSummary(token), revoked_at: token.revokedAt?.getTime() ?? null, kind: "api_token" };
}

/**
 * An app connected through OAuth, shown like a token under the name it gave itself. A grant reaches every
 * drop and lasts until revoked; its access tokens expire hourly and are refreshed.
 */
function grantSummary(grant: GrantRow): TokenSummaryJson {
  return {
    id: grant.id,
    label: grant.clientName ?? grant.clientId,
    created_at: grant.createdAt.getTime(),
    last_used_at: grant.lastUsedAt?.getTime() ?? null,
    scopes: parseStoredScopes(grant.scopes),
    drops: null,
    expires_at: null,
  };
}

function grantListItem(grant: GrantRow): TokenListItemJson {
  return { ...grantSummary(grant), revoked_at: grant.revokedAt?.getTime() ?? null, kind: "oauth", client_id: grant.clientId };
}

/**
 * Creates a token and returns its plaintext: the only moment it exists outside the caller.
 * `client` lets a caller mint inside its own transaction (the device flow claims and mints atomically).
 */
export async function issueToken(
  userId: string,
  input: { label: string | null; grant: Grant },
  client: Tx = db(),
): Promise<{ token: string; summary: TokenSummaryJson }> {
  const { grant } = input;
  for (;;) {
    const { token, secret } = mintToken();
    const hash = hashSecret(secret);
    const id = tokenIdFromHash(hash);
    // Ids are 48 bits of the hash; on the rare collision, mint another.
    if (await client.apiToken.findUnique({ where: { id }, select: { id: true } })) continue;
    const row = await client.apiToken.create({
      data: {
        id,
        hash,
        userId,
        label: input.label,
        createdAt: new Date(now()),
        scopes: formatStoredScopes(grant.scopes),
        drops: formatStoredDrops(grant.drops),
        expiresAt: grant.expiresAt === null ? null : new Date(grant.expiresAt),
      },
    });
    return { token, summary: toSummary(row) };
  }
}

/**
 * Resolves `Authorization: Bearer <token>`, the one entry point of every bearer credential: an API token,
 * or an OAuth access token issued for `resource`. No header: token_required; a header that is not a
 * well-formed bearer token: invalid_token; a well-formed token that is unknown, revoked or past its
 * expiry: unauthorized.
 */
export async function authenticateBearer(authorization: string | null, resource: ResourceName = "api"): Promise<Caller> {
  if (!authorization?.trim()) {
    throw new ApiError("token_required", "An API token is required: send `Authorization: Bearer <token>` (see /api/onboard to get one).");
  }
  const presented = bearerCredential(authorization);
  const secret = presented ? tokenSecret(presented) : null;
  if (presented && looksLikeAccessToken(presented)) return authenticateAccessToken(presented, resource);
  if (!presented || !secret) {
    throw new ApiError("invalid_token", "The Authorization header does not carry a well-formed htmldrop bearer token.");
  }
  const token = await db().apiToken.findFirst({
    where: { hash: { in: storedTokenHashes(presented, secret) } },
    select: { id: true, userId: true, revokedAt: true, lastUsedAt: true, scopes: true, drops: true, expiresAt: true },
  });
  if (!token || token.revokedAt) {
    throw new ApiError("unauthorized", "This API token is unknown or has been revoked; sign in again to get a new one.");
  }
  const at = now();
  if (token.expiresAt && token.expiresAt.getTime() <= at) {
    throw new ApiError("unauthorized", `This API token expired at ${token.expiresAt.toISOString()}; sign in again or create a new token.`);
  }
  if (!token.lastUsedAt || at - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db().apiToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date(at) } });
  }
  return {
    userId: token.userId,
    tokenId: token.id,
    kind: "api_token",
    scopes: parseStoredScopes(token.scopes),
    drops: parseStoredDrops(token.drops),
    expiresAt: token.expiresAt?.getTime() ?? null,
  };
}

export async function describeCaller(caller: Pick<Caller, "userId" | "tokenId" | "kind">): Promise<MeJson> {
  const user = await db().user.findUniqueOrThrow({ where: { id: caller.userId }, select: { id: true, createdAt: true, dropCount: true } });
  const token = caller.kind === "api_token" ? await db().apiToken.findUnique({ where: { id: caller.tokenId } }) : null;
  const grant = caller.kind === "oauth" ? await db().oAuthGrant.findUnique({ where: { id: caller.tokenId } }) : null;
  const summary = token ? toSummary(token) : grant ? grantSummary(grant) : null;
  return { user_id: user.id, created_at: user.createdAt.getTime(), drop_count: user.dropCount, token: summary };
}

/** The caller's credentials: API tokens and the OAuth grants of connected apps, newest first. */
export async function listTokens(userId: string): Promise<TokenListItemJson[]> {
  const [tokens, grants] = await Promise.all([
    db().apiToken.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] }),
    listGrants(userId),
  ]);
  const items = [...tokens.map(toListItem), ...grants.map(grantListItem)];
  return items.sort((a, b) => b.created_at - a.created_at || a.id.localeCompare(b.id));
}

/** Revokes one of the caller's tokens or grants; another account's id is indistinguishable from a missing one. */
export async function revokeToken(userId: string, tokenId: string): Promise<void> {
  const token = await db().apiToken.findUnique({ where: { id: tokenId }, select: { userId: true, revokedAt: true } });
  if (token && token.userId === userId) {
    if (!token.revokedAt) await db().apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date(now()) } });
    return;
  }
  if (!(await revokeGrant(userId, tokenId))) throw new ApiError("not_found", `No token with id ${tokenId}.`);
}
