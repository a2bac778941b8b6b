// The bearer facade: API tokens and OAuth grants behind one authentication, one list and one revocation.
// It reads grants as stored records (lib/oauth/grant-records.ts), so no token request loads oidc-provider.
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db";
import { ColumnOfFirstRow, epochMs, readAlone, readRow, readRowWith, type AlongsideCall, type HotRead } from "@/lib/db/reads";
import { ApiError } from "@/lib/errors";
import { authenticateAccessToken, looksLikeAccessToken } from "@/lib/oauth/access-tokens";
import { listGrants, revokeGrant, type GrantRow } from "@/lib/oauth/grant-records";
import { revokeMintedBy } from "./lineage";
import type { ResourceName } from "@/lib/oauth/resources";
import type { MeJson, TokenListItemJson, TokenSummaryJson } from "@/lib/schemas/accounts";
import { bearerCredential, hashSecret, mintToken, storedTokenHashes, tokenIdFromHash, tokenSecret } from "@/lib/security/tokens";
import { LAST_USED_RESOLUTION_MS, type Caller, type Grant } from "./credentials";
import { formatStoredDrops, formatStoredScopes, parseStoredDrops, parseStoredScopes } from "./scopes";

type TokenRow = {
  id: string;
  label: string | null;
  scopes: string;
  drops: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  mintedBy: string | null;
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
  return { ...toSummary(token), revoked_at: token.revokedAt?.getTime() ?? null, kind: "api_token", ...(token.mintedBy ? { minted_by: token.mintedBy } : {}) };
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
  input: { label: string | null; grant: Grant; mintedBy?: string },
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
        mintedBy: input.mintedBy ?? null,
      },
    });
    return { token, summary: toSummary(row) };
  }
}

// Every authenticated request reads its token, so the read skips Prisma (lib/db/reads.ts); dates as Unix ms.
const PRESENTED_TOKEN_COLUMNS = ['"id"', '"userId"', '"scopes"', '"drops"'].join(", ");
const PRESENTED_TOKEN_DATES = [epochMs('"revokedAt"', "revokedAt"), epochMs('"lastUsedAt"', "lastUsedAt"), epochMs('"expiresAt"', "expiresAt")];
const PRESENTED_TOKEN: HotRead = {
  name: "htmldrop_presented_token",
  sqlite: `SELECT ${PRESENTED_TOKEN_COLUMNS}, ${PRESENTED_TOKEN_DATES.map((date) => date.sqlite).join(", ")} FROM "ApiToken" WHERE "hash" IN (?, ?) LIMIT 1`,
  postgres: `SELECT ${PRESENTED_TOKEN_COLUMNS}, ${PRESENTED_TOKEN_DATES.map((date) => date.postgres).join(", ")} FROM "ApiToken" WHERE "hash" IN ($1, $2) LIMIT 1`,
};
type PresentedToken = { id: string; userId: string; scopes: string; drops: string | null; revokedAt: number | null; lastUsedAt: number | null; expiresAt: number | null };

/**
 * What an Authorization header presents: an OAuth access token, or an API token's stored hashes (the
 * current and the legacy one). No header: token_required; a header that is not a well-formed bearer
 * token: invalid_token.
 */
function presentedBearer(authorization: string | null): { accessToken: string } | { hashes: readonly string[] } {
  if (!authorization?.trim()) {
    throw new ApiError("token_required", "An API token is required: send `Authorization: Bearer <token>` (see /api/onboard to get one).");
  }
  const presented = bearerCredential(authorization);
  const secret = presented ? tokenSecret(presented) : null;
  if (presented && looksLikeAccessToken(presented)) return { accessToken: presented };
  if (!presented || !secret) {
    throw new ApiError("invalid_token", "The Authorization header does not carry a well-formed htmldrop bearer token.");
  }
  return { hashes: storedTokenHashes(presented, secret) };
}

/** The caller of a presented API token's row: unknown, revoked or past its expiry is unauthorized. */
async function acceptPresentedToken(token: PresentedToken | undefined): Promise<Caller> {
  if (!token || token.revokedAt !== null) {
    throw new ApiError("unauthorized", "This API token is unknown or has been revoked; sign in again to get a new one.");
  }
  const at = now();
  if (token.expiresAt !== null && token.expiresAt <= at) {
    throw new ApiError("unauthorized", `This API token expired at ${new Date(token.expiresAt).toISOString()}; sign in again or create a new token.`);
  }
  if (token.lastUsedAt === null || at - token.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    await db().apiToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date(at) } });
  }
  return {
    userId: token.userId,
    tokenId: token.id,
    kind: "api_token",
    scopes: parseStoredScopes(token.scopes),
    drops: parseStoredDrops(token.drops),
    expiresAt: token.expiresAt,
  };
}

/**
 * Resolves `Authorization: Bearer <token>`, the one entry point of every bearer credential: an API token,
 * or an OAuth access token issued for `resource` (presentedBearer and acceptPresentedToken say what fails).
 */
export async function authenticateBearer(authorization: string | null, resource: ResourceName = "api"): Promise<Caller> {
  const presented = presentedBearer(authorization);
  if ("accessToken" in presented) return authenticateAccessToken(presented.accessToken, resource);
  return acceptPresentedToken(await readRow<PresentedToken>(PRESENTED_TOKEN, presented.hashes));
}

/** Stands, in a read alongside the caller's token (authenticateBearerAlong), for the caller's account: the token's owner. */
export const CALLER_ACCOUNT = new ColumnOfFirstRow("userId");

/**
 * authenticateBearer, and what `alongside` reads, in the same round trip as an API token (readRowWith):
 * a read the caller is then checked for, never one it is answered without.
 */
export async function authenticateBearerAlong<R>(authorization: string | null, alongside: AlongsideCall, resource: ResourceName = "api"): Promise<{ caller: Caller; row: R | undefined }> {
  const presented = presentedBearer(authorization);
  if ("accessToken" in presented) {
    const caller = await authenticateAccessToken(presented.accessToken, resource);
    return { caller, row: await readAlone<R>(alongside, { [CALLER_ACCOUNT.column]: caller.userId }) };
  }
  const [token, row] = await readRowWith<PresentedToken, R>({ read: PRESENTED_TOKEN, values: presented.hashes }, alongside);
  return { caller: await acceptPresentedToken(token), row };
}

export async function describeCaller(caller: Pick<Caller, "userId" | "tokenId" | "kind">): Promise<MeJson> {
  const user = await db().user.findUniqueOrThrow({ where: { id: caller.userId }, select: { id: true, createdAt: true, dropCount: true } });
  const token = caller.kind === "api_token" ? await db().apiToken.findUnique({ where: { id: caller.tokenId } }) : null;
  const grant = caller.kind === "oauth" ? await db().oAuthGrant.findUnique({ where: { id: caller.tokenId } }) : null;
  const summary = token ? toSummary(token) : grant ? grantSummary(grant) : null;
  return { user_id: user.id, created_at: user.createdAt.getTime(), drop_count: user.dropCount, token: summary };
}

/**
 * Whether a credential is no broader than `within`: none of its scopes missing there, and, when `within`
 * is limited to some drops, limited to some of those too. A drop-limited manager sees and revokes only
 * such credentials, so another token's `drops` never tells it the slug of a drop outside its own list.
 */
function isWithin(scopes: string, drops: string | null, within: Grant): boolean {
  if (!parseStoredScopes(scopes).every((scope) => within.scopes.includes(scope))) return false;
  if (within.drops === null) return true;
  const limit = within.drops;
  const own = parseStoredDrops(drops);
  return own !== null && own.every((slug) => limit.includes(slug));
}

/** The caller's credentials no broader than `within` (see isWithin): API tokens and connected apps, newest first. */
export async function listTokens(userId: string, within: Grant): Promise<TokenListItemJson[]> {
  const [tokens, grants] = await Promise.all([
    db().apiToken.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] }),
    listGrants(userId),
  ]);
  const items = [
    ...tokens.filter((token) => isWithin(token.scopes, token.drops, within)).map(toListItem),
    ...grants.filter((grant) => isWithin(grant.scopes, null, within)).map(grantListItem),
  ];
  return items.sort((a, b) => b.created_at - a.created_at || a.id.localeCompare(b.id));
}

/**
 * Revokes one of the caller's tokens or grants no broader than `within`; another account's id, or a
 * broader credential's, is indistinguishable from a missing one.
 */
export async function revokeToken(userId: string, tokenId: string, within: Grant): Promise<void> {
  const notFound = () => new ApiError("not_found", `No token with id ${tokenId}.`);
  const token = await db().apiToken.findUnique({ where: { id: tokenId }, select: { userId: true, revokedAt: true, scopes: true, drops: true } });
  if (token && token.userId === userId) {
    if (!isWithin(token.scopes, token.drops, within)) throw notFound();
    if (!token.revokedAt) await db().apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date(now()) } });
    await revokeMintedBy(tokenId);
    return;
  }
  const grant = await db().oAuthGrant.findUnique({ where: { id: tokenId }, select: { scopes: true } });
  if (grant && !isWithin(grant.scopes, null, within)) throw notFound();
  if (!(await revokeGrant(userId, tokenId))) throw notFound();
}
