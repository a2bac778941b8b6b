import { now } from "@/lib/clock";
import { db, isUniqueViolation } from "@/lib/db";
import { newId } from "@/lib/security/random";

/**
 * `email`: only one the provider vouched for, lower-cased. `orgClaimValues`: ORG_OIDC_CLAIM's claim as the
 * provider sent it; both are refreshed at every sign-in (lib/sharing).
 */
export type IdentityInput = { provider: string; providerAccountId: string; login?: string | null; email?: string | null; orgClaimValues?: string[] | null };

function identityFacts(identity: IdentityInput) {
  return { email: identity.email ?? null, orgClaimValues: identity.orgClaimValues?.length ? JSON.stringify(identity.orgClaimValues) : null };
}

/** The local sign-in and the admin command share this provider name, so `--login alice` is the same account. */
export const LOCAL_PROVIDER = "local";

/** One htmldrop account per identity: the first sign-in creates it, every later one finds it. */
export async function findOrCreateUserForIdentity(identity: IdentityInput): Promise<{ id: string; login: string | null }> {
  const where = { provider_providerAccountId: { provider: identity.provider, providerAccountId: identity.providerAccountId } };
  const existing = await db().identity.findUnique({ where, include: { user: true } });
  if (existing) {
    const facts = identityFacts(identity);
    if (existing.email !== facts.email || existing.orgClaimValues !== facts.orgClaimValues) await db().identity.update({ where: { id: existing.id }, data: facts });
    return { id: existing.user.id, login: existing.user.login };
  }
  const createdAt = new Date(now());
  try {
    const user = await db().user.create({
      data: {
        id: newId(),
        login: identity.login ?? null,
        createdAt,
        identities: { create: { id: newId(), provider: identity.provider, providerAccountId: identity.providerAccountId, login: identity.login ?? null, ...identityFacts(identity), createdAt } },
      },
    });
    return { id: user.id, login: user.login };
  } catch (error) {
    // A concurrent first sign-in of the same identity created the account first.
    if (!isUniqueViolation(error)) throw error;
    const winner = await db().identity.findUniqueOrThrow({ where, include: { user: true } });
    return { id: winner.user.id, login: winner.user.login };
  }
}
