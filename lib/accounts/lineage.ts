import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";

/**
 * A token minted by another credential (POST /api/tokens) dies with it: revoking an API token or
 * ending an OAuth grant revokes every token it minted, and theirs. Ids of tokens and grants share one space.
 */
export async function revokeMintedBy(minterId: string): Promise<void> {
  const revokedAt = new Date(now());
  for (let minters = [minterId]; minters.length > 0; ) {
    const minted = await db().apiToken.findMany({ where: { mintedBy: { in: minters } }, select: { id: true } });
    minters = minted.map((token) => token.id);
    if (minters.length > 0) await db().apiToken.updateMany({ where: { id: { in: minters }, revokedAt: null }, data: { revokedAt } });
  }
}

/**
 * Called after a token is minted: when its minter was revoked meanwhile, the revocation's sweep may have
 * missed the new row, so it is revoked here. A revocation marks the minter before it sweeps, so one of the two always sees the other.
 */
export async function revokeIfMinterRevoked(minter: { id: string; kind: "api_token" | "oauth" }, mintedId: string): Promise<void> {
  const where = { id: minter.id, revokedAt: null };
  const live = minter.kind === "oauth" ? await db().oAuthGrant.count({ where }) : await db().apiToken.count({ where });
  if (live > 0) return;
  await db().apiToken.updateMany({ where: { id: mintedId, revokedAt: null }, data: { revokedAt: new Date(now()) } });
  throw new ApiError("unauthorized", "The credential that made this request was revoked while it ran; no token was created.");
}
