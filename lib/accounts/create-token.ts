import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { CreatedTokenJson, CreateTokenBody, TokenSummaryJson } from "@/lib/schemas/accounts";
import { type Caller, FULL_GRANT, type Grant } from "./credentials";
import { describeDropLimit, normalizeScopes } from "./scopes";
import { revokeIfMinterRevoked } from "./lineage";
import { issueToken } from "./tokens";
import { findOrCreateUserForIdentity, LOCAL_PROVIDER } from "./users";

/** What was asked for, as the schema parsed it: undefined = "the same as the granting credential". */
export type TokenRequest = Pick<CreateTokenBody, "scopes" | "drops" | "expires_at">;

function invalidField(field: string, message: string): ApiError {
  return new ApiError("invalid_arg", `Invalid arguments: ${field}: ${message}`, { fields: [{ field, message }] });
}

function formatExpiry(ms: number): string {
  return new Date(ms).toISOString();
}

function resolveScopes(granter: Grant, requested: TokenRequest["scopes"]): Grant["scopes"] {
  if (requested === undefined) return granter.scopes;
  const scopes = normalizeScopes(requested);
  const missing = scopes.find((scope) => !granter.scopes.includes(scope));
  if (missing) {
    throw new ApiError("forbidden", `A token cannot grant the ${missing} scope: it does not have it itself (it has: ${granter.scopes.join(", ") || "no scopes"}).`, {
      required_scope: missing,
    });
  }
  return scopes;
}

async function resolveDrops(userId: string, granter: Grant, requested: TokenRequest["drops"]): Promise<Grant["drops"]> {
  if (requested === undefined) return granter.drops;
  if (requested === null) {
    if (granter.drops !== null) throw new ApiError("forbidden", `This token is limited to ${describeDropLimit(granter.drops)}, so it cannot grant every drop.`);
    return null;
  }
  const slugs = [...new Set(requested)];
  const limit = granter.drops;
  if (limit !== null) {
    const outside = slugs.filter((slug) => !limit.includes(slug));
    if (outside.length > 0) throw new ApiError("forbidden", `This token may only grant ${describeDropLimit(limit)}, not ${outside.join(", ")}.`);
  }
  // Every slug must name a drop of this account; another account's drop reads exactly like a missing one.
  const owned = new Set((await db().drop.findMany({ where: { ownerId: userId, slug: { in: slugs } }, select: { slug: true } })).map((drop) => drop.slug));
  const index = requested.findIndex((slug) => !owned.has(slug));
  if (index >= 0) throw invalidField(`drops.${index}`, `no drop ${requested[index]} in your account`);
  return slugs;
}

function resolveExpiry(granter: Grant, requested: TokenRequest["expires_at"]): Grant["expiresAt"] {
  if (requested === undefined) return granter.expiresAt;
  if (requested === null) {
    if (granter.expiresAt !== null) throw new ApiError("forbidden", `This token expires at ${formatExpiry(granter.expiresAt)}, so it cannot grant a token that never expires.`);
    return null;
  }
  if (requested <= now()) throw invalidField("expires_at", "must be in the future");
  if (granter.expiresAt !== null && requested > granter.expiresAt) {
    throw new ApiError("forbidden", `This token expires at ${formatExpiry(granter.expiresAt)}; a token it creates cannot outlive it.`);
  }
  return requested;
}

/**
 * Narrows a request to what `granter` may hand on: a new token never gets a scope, a drop or a moment of
 * life its granter lacks. What the request leaves out is copied from the granter.
 */
export async function resolveGrant(userId: string, granter: Grant, request: TokenRequest): Promise<Grant> {
  const scopes = resolveScopes(granter, request.scopes);
  const drops = await resolveDrops(userId, granter, request.drops);
  const expiresAt = resolveExpiry(granter, request.expires_at);
  return { scopes, drops, expiresAt };
}

/**
 * POST /api/tokens and the dashboard's "New token": a token for the caller's account, within the caller's
 * own grant. It counts as a write once the request is known to be valid. The plaintext is returned here
 * and never again. A token minted by a credential (not by the signed-in human) records it, and dies with it.
 */
export async function createToken(caller: Grant & { userId: string } & Partial<Pick<Caller, "tokenId" | "kind">>, input: CreateTokenBody): Promise<CreatedTokenJson> {
  const grant = await resolveGrant(caller.userId, caller, input);
  await assertWriteAllowed(caller.userId);
  const minter = caller.tokenId && caller.kind ? { id: caller.tokenId, kind: caller.kind } : undefined;
  const { token, summary } = await issueToken(caller.userId, { label: input.label ?? null, grant, mintedBy: minter?.id });
  if (minter) await revokeIfMinterRevoked(minter, summary.id);
  return { token, id: summary.id, label: summary.label, scopes: summary.scopes, drops: summary.drops, expires_at: summary.expires_at, created_at: summary.created_at };
}

/**
 * `npm run admin -- token create`: a token for the local account `login`, which is created if need be.
 * The operator grants what is asked within every scope; an impossible request (a drop the account does
 * not own, an expiry in the past) is refused with the same ApiError as POST /api/tokens.
 */
export async function createOperatorToken(login: string, request: TokenRequest & { label: string | null }): Promise<{ token: string; summary: TokenSummaryJson; userId: string }> {
  const user = await findOrCreateUserForIdentity({ provider: LOCAL_PROVIDER, providerAccountId: login.toLowerCase(), login });
  const grant = await resolveGrant(user.id, FULL_GRANT, request);
  const { token, summary } = await issueToken(user.id, { label: request.label, grant });
  return { token, summary, userId: user.id };
}
