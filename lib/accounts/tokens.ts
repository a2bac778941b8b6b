import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { MeJson, TokenListItemJson, TokenSummaryJson } from "@/lib/schemas/accounts";
import { hashSecret, mintToken, storedTokenHashes, tokenIdFromHash, tokenSecret } from "@/lib/security/tokens";

/** last_used_at is refreshed at most this often, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type TokenCaller = { userId: string; tokenId: string };

type TokenRow = { id: string; label: string | null; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

function toSummary(token: TokenRow): TokenSummaryJson {
  return { id: token.id, label: token.label, created_at: token.createdAt.getTime(), last_used_at: token.lastUsedAt?.getTime() ?? null };
}

function toListItem(token: TokenRow): TokenListItemJson {
  return { ...toSummary(token), revoked_at: token.revokedAt?.getTime() ?? null };
}

/**
 * Creates a token and returns its plaintext: the only moment it exists outside the caller.
 * `client` lets a caller mint inside its own transaction (the device flow claims and mints atomically).
 */
export async function issueToken(userId: string, label: string | null, client: Tx = db()): Promise<{ token: string; id: string }> {
  for (;;) {
    const { token, secret } = mintToken();
    const hash = hashSecret(secret);
    const id = tokenIdFromHash(hash);
    // Ids are 48 bits of the hash; on the rare collision, mint another.
    if (await client.apiToken.findUnique({ where: { id }, select: { id: true } })) continue;
    await client.apiToken.create({ data: { id, hash, userId, label, createdAt: new Date(now()) } });
    return { token, id };
  }
}

/**
 * Resolves `Authorization: Bearer <token>`. No header: token_required; a header that is not a
 * well-formed bearer token: invalid_token; a well-formed token that is unknown or revoked: unauthorized.
 */
export async function authenticateBearer(authorization: string | null): Promise<TokenCaller> {
  if (!authorization?.trim()) {
    throw new ApiError("token_required", "An API token is required: send `Authorization: Bearer <token>` (see /api/onboard to get one).");
  }
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim())?.[1];
  const secret = presented ? tokenSecret(presented) : null;
  if (!presented || !secret) {
    throw new ApiError("invalid_token", "The Authorization header does not carry a well-formed htmldrop bearer token.");
  }
  const token = await db().apiToken.findFirst({
    where: { hash: { in: storedTokenHashes(presented, secret) } },
    select: { id: true, userId: true, revokedAt: true, lastUsedAt: true },
  });
  if (!token || token.revokedAt) {
    throw new ApiError("unauthorized", "This API token is unknown or has been revoked; sign in again to get a new one.");
  }
  const at = now();
  if (!token.lastUsedAt || at - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db().apiToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date(at) } });
  }
  return { userId: token.userId, tokenId: token.id };
}

export async function describeCaller(caller: { userId: string; tokenId: string | null }): Promise<MeJson> {
  const user = await db().user.findUniqueOrThrow({ where: { id: caller.userId }, select: { id: true, createdAt: true, dropCount: true } });
  const token = caller.tokenId ? await db().apiToken.findUnique({ where: { id: caller.tokenId } }) : null;
  return { user_id: user.id, created_at: user.createdAt.getTime(), drop_count: user.dropCount, token: token ? toSummary(token) : null };
}

export async function listTokens(userId: string): Promise<TokenListItemJson[]> {
  const tokens = await db().apiToken.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  return tokens.map(toListItem);
}

/** Revokes one of the caller's tokens; another account's token id is indistinguishable from a missing one. */
export async function revokeToken(userId: string, tokenId: string): Promise<void> {
  const token = await db().apiToken.findUnique({ where: { id: tokenId }, select: { userId: true, revokedAt: true } });
  if (!token || token.userId !== userId) throw new ApiError("not_found", `No token with id ${tokenId}.`);
  if (!token.revokedAt) await db().apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date(now()) } });
}
