// The grants people approved, as the database keeps them: listed and revoked beside API tokens on every
// token route, so nothing here may load oidc-provider (the consent flow, lib/oauth/consent.ts, does).
// Up a floor, deliberately: ending a grant revokes the tokens it minted, one lineage for both kinds of credential.
import { revokeMintedBy } from "@/lib/accounts/lineage";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { oauthRecordKey } from "./record-key";

export type GrantRow = {
  id: string;
  clientId: string;
  clientName: string | null;
  scopes: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export async function listGrants(userId: string): Promise<GrantRow[]> {
  return db().oAuthGrant.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
}

/**
 * Ends a grant by oidc-provider's grant id: every code and token of it goes, and the grant itself, so the
 * client must ask the human again; the connection shows as revoked, and the API tokens the app minted are revoked with it.
 */
export async function revokeGrantRecords(grantId: string): Promise<void> {
  await db().oAuthRecord.deleteMany({ where: { OR: [{ grantId }, { key: oauthRecordKey("Grant", grantId) }] } });
  await db().oAuthGrant.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: new Date(now()) } });
  const grant = await db().oAuthGrant.findUnique({ where: { grantId }, select: { id: true } });
  if (grant) await revokeMintedBy(grant.id);
}

/** Ends one of the caller's grants. Returns false when the id names none of them. */
export async function revokeGrant(userId: string, id: string): Promise<boolean> {
  const grant = await db().oAuthGrant.findUnique({ where: { id }, select: { userId: true, grantId: true } });
  if (!grant || grant.userId !== userId) return false;
  await revokeGrantRecords(grant.grantId);
  return true;
}
