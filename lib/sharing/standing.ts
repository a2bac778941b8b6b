// Who an account is to one drop, read fresh on every request (so a removal or a lowered level takes
// effect on the next request, on every instance), and the Viewer a request on a drop amounts to.
import { sessionUserId } from "@/lib/auth/session-cookie";
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { db, type Tx } from "@/lib/db";
import { effectiveAccess, type PasscodeUnlock, type Standing, type Viewer } from "@/lib/drops/access-decision";
import { isExpired } from "@/lib/drops/expiry";
import type { MemberRole } from "./levels";
import { verifyViewerPass } from "./pass";

type DropRef = { id: string; ownerId: string };

/** Whether a verified email puts its owner inside the org: always, without a boundary; never, with only a claim. */
export function emailInOrg(email: string): boolean {
  const { org } = getConfig().sharing;
  return org === null || org.emailDomains.includes(email.slice(email.lastIndexOf("@") + 1));
}

/** Whether the account belongs to this instance's org: every account does unless ORG_* draw a boundary. */
export async function isOrgMember(accountId: string, client: Tx = db()): Promise<boolean> {
  const { org } = getConfig().sharing;
  if (org === null) return true;
  const identities = await client.identity.findMany({ where: { userId: accountId }, select: { email: true, orgClaimValues: true } });
  return identities.some(
    (identity) =>
      (identity.email !== null && emailInOrg(identity.email)) ||
      (org.oidcClaim !== null && identity.orgClaimValues !== null && (JSON.parse(identity.orgClaimValues) as string[]).includes(org.oidcClaim.value)),
  );
}

/** The higher role the drop's list gives the account, as a person or through a team it belongs to. */
async function listedRole(dropId: string, accountId: string, client: Tx): Promise<MemberRole | null> {
  const entries = await client.dropMember.findMany({
    where: { dropId, OR: [{ userId: accountId }, { team: { members: { some: { userId: accountId } } } }] },
    select: { role: true },
  });
  if (entries.length === 0) return null;
  return entries.some((entry) => entry.role === "editor") ? "editor" : "viewer";
}

export async function standingOn(drop: DropRef, accountId: string, client: Tx = db()): Promise<Standing> {
  const [member, role] = await Promise.all([isOrgMember(accountId, client), drop.ownerId === accountId ? null : listedRole(drop.id, accountId, client)]);
  if (drop.ownerId === accountId) return { role: "owner", member };
  // Behind an org boundary only members edit: an editor outside it opens the drop as a viewer.
  return { role: role === "editor" && !member ? "viewer" : role, member };
}

/**
 * The Viewer of a request on a drop's public URLs. A live public drop without a passcode (or none) needs
 * no account, so neither the session nor the list is read; otherwise (for the list, or for the owner and
 * editors, whom a passcode does not stop and who may extend an expired drop) the account is the
 * browser's session or, where cookies do not reach (the raw frame on CONTENT_ORIGIN), the viewer's pass
 * in the URL. Without a promise when no account is read (the raw endpoint's and the page cache's hot path).
 */
export function viewerOn(
  drop: (DropRef & { access: string; passcodeHash: string | null; expiresAt: Date | number | null }) | null,
  request: { slug: string; cookieHeader: string | null | undefined; pass?: string | null },
  unlock: PasscodeUnlock | null,
): Viewer | Promise<Viewer> {
  // The clock is read only for a drop that expires: Next.js wraps Date.now, which made the read cost more than the rest of this test.
  if (drop === null || (effectiveAccess(drop.access) === "public" && drop.passcodeHash === null && (drop.expiresAt === null || !isExpired(drop.expiresAt, now())))) {
    return { kind: "anonymous", unlock };
  }
  return accountViewer(drop, request, unlock);
}

async function accountViewer(drop: DropRef, request: { slug: string; cookieHeader: string | null | undefined; pass?: string | null }, unlock: PasscodeUnlock | null): Promise<Viewer> {
  const accountId = (await sessionUserId(request.cookieHeader ?? undefined)) ?? (request.pass ? verifyViewerPass(request.slug, request.pass) : null);
  if (accountId === null) return { kind: "anonymous", unlock };
  return { kind: "account", accountId, standing: await standingOn(drop, accountId), unlock };
}
