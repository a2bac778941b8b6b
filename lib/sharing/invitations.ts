// People are invited to a drop or a team by login or email before they have an account. The first
// sign-in whose identity matches (its login, or an email the provider vouched for) turns each waiting
// entry into the account's own; until then the entry admits no one.
import { db, type Tx } from "@/lib/db";

export type InviteeKey = { email: string } | { login: string };

/** How an invitee is matched: emails and logins compare lower-cased. */
export function normalizeInvitee(input: { email?: string; login?: string }): InviteeKey {
  return input.email !== undefined ? { email: input.email.trim().toLowerCase() } : { login: input.login!.trim().toLowerCase() };
}

/** The account an invitee already is, or null: an email an identity verified, or a login no two accounts share. */
export async function existingAccountOf(invitee: InviteeKey, client: Tx = db()): Promise<{ id: string } | "ambiguous" | null> {
  const rows =
    "email" in invitee
      ? await client.identity.findMany({ where: { email: invitee.email }, select: { userId: true }, take: 2 })
      : await client.$queryRaw<{ userId: string }[]>`
          SELECT "userId" FROM "Identity" WHERE LOWER("login") = ${invitee.login}
          UNION SELECT "id" AS "userId" FROM "User" WHERE LOWER("login") = ${invitee.login}`;
  const ids = new Set(rows.map((row) => row.userId));
  if (ids.size > 1) return "ambiguous";
  const [id] = ids;
  return id === undefined ? null : { id };
}

/** At sign-in: every waiting entry for this login or verified email becomes the account's. */
export async function claimInvitations(userId: string, identity: { login?: string | null; email?: string | null }): Promise<void> {
  const matches = [
    ...(identity.email ? [{ email: identity.email.toLowerCase() }] : []),
    ...(identity.login ? [{ login: identity.login.toLowerCase() }] : []),
  ];
  if (matches.length === 0) return;
  await db().$transaction(async (tx) => {
    for (const waiting of await tx.dropMember.findMany({ where: { userId: null, teamId: null, OR: matches } })) {
      const held = await tx.dropMember.findUnique({ where: { dropId_userId: { dropId: waiting.dropId, userId } } });
      const owner = await tx.drop.findUnique({ where: { id: waiting.dropId }, select: { ownerId: true } });
      if (held || owner?.ownerId === userId) {
        // Already on the list (or the owner): the waiting entry adds at most a higher role.
        if (held && waiting.role === "editor" && held.role !== "editor") await tx.dropMember.update({ where: { id: held.id }, data: { role: "editor" } });
        await tx.dropMember.delete({ where: { id: waiting.id } });
      } else {
        await tx.dropMember.update({ where: { id: waiting.id }, data: { userId, email: null, login: null } });
      }
    }
    for (const waiting of await tx.teamMember.findMany({ where: { userId: null, OR: matches } })) {
      const held = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId: waiting.teamId, userId } } });
      if (held) await tx.teamMember.delete({ where: { id: waiting.id } });
      else await tx.teamMember.update({ where: { id: waiting.id }, data: { userId, email: null, login: null } });
    }
  });
}
