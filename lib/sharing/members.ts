// A drop's list: the people and teams it admits beyond its owner, each as a viewer or an editor. Only
// the owner reads or changes it.
import { now } from "@/lib/clock";
import { db, isUniqueViolation, transaction, type Tx } from "@/lib/db";
import { getDropFor } from "@/lib/drops/access";
import { dropChanged } from "@/lib/drops/changed";
import { recordDropEvent } from "@/lib/events/record";
import { ApiError } from "@/lib/errors";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { DropMemberJson } from "@/lib/schemas/sharing";
import { newId } from "@/lib/security/random";
import { existingAccountOf, normalizeInvitee } from "./invitations";
import type { MemberRole } from "./levels";
import { emailInOrg, isOrgMember } from "./standing";

type MemberRow = {
  id: string;
  role: string;
  userId: string | null;
  teamId: string | null;
  email: string | null;
  login: string | null;
  user: { login: string | null } | null;
  team: { name: string } | null;
};
const MEMBER_INCLUDE = { user: { select: { login: true } }, team: { select: { name: true } } } as const;

function toMemberJson(row: MemberRow): DropMemberJson {
  const role = row.role as MemberRole;
  if (row.teamId !== null) return { id: row.id, kind: "team", team_id: row.teamId, ...(row.team ? { team_name: row.team.name } : {}), role, pending: false };
  const login = row.user?.login ?? row.login;
  return { id: row.id, kind: "person", ...(login ? { login } : {}), ...(row.email ? { email: row.email } : {}), role, pending: row.userId === null };
}

export async function listDropMembers(userId: string, slug: string): Promise<DropMemberJson[]> {
  const drop = await getDropFor(userId, slug, "owner");
  const rows = await db().dropMember.findMany({ where: { dropId: drop.id }, include: MEMBER_INCLUDE, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toMemberJson);
}

/** Behind an org boundary, only the org's members may edit. */
async function assertMayEdit(role: MemberRole, accountId: string | null, email: string | null, client: Tx): Promise<void> {
  if (role !== "editor") return;
  const outside = accountId !== null ? !(await isOrgMember(accountId, client)) : email !== null && !emailInOrg(email);
  if (outside) throw new ApiError("invalid_arg", "Only members of this instance's org may be editors; add them as a viewer.", { fields: [{ field: "role", message: "editor needs an org member" }] });
}

export type AddMemberInput = { login?: string; email?: string; team_id?: string; role: MemberRole };

export async function addDropMember(userId: string, slug: string, input: AddMemberInput): Promise<DropMemberJson> {
  await assertWriteAllowed(userId);
  try {
    return await transaction(async (tx) => {
      const drop = await getDropFor(userId, slug, "owner", tx);
      const createdAt = new Date(now());
      const base = { id: newId(), dropId: drop.id, role: input.role, createdAt };
      let data: typeof base & { userId?: string; teamId?: string; email?: string; login?: string };
      if (input.team_id !== undefined) {
        const team = await tx.team.findUnique({ where: { id: input.team_id }, select: { id: true, ownerId: true, members: { where: { userId }, select: { id: true } } } });
        // A team is shared by its maker or a member; anyone else is told it does not exist.
        if (!team || (team.ownerId !== userId && team.members.length === 0)) throw new ApiError("not_found", `No team with id ${input.team_id}.`);
        data = { ...base, teamId: team.id };
      } else {
        const invitee = normalizeInvitee(input);
        const account = await existingAccountOf(invitee, tx);
        if (account === "ambiguous") throw new ApiError("invalid_arg", "More than one account has this login; add the person by email.", { fields: [{ field: "login", message: "ambiguous" }] });
        if (account?.id === drop.ownerId) throw new ApiError("invalid_arg", "The owner is always admitted; the list is for other people.", { fields: [{ field: "login" in invitee ? "login" : "email", message: "the owner" }] });
        await assertMayEdit(input.role, account?.id ?? null, "email" in invitee ? invitee.email : null, tx);
        data = account ? { ...base, userId: account.id } : { ...base, ...invitee };
      }
      const row = await tx.dropMember.create({ data, include: MEMBER_INCLUDE });
      await dropChanged(tx, drop);
      const member = toMemberJson(row);
      recordDropEvent(tx, "access.changed", drop.id, { access: { change: "member_added", level: drop.access, member } });
      return member;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("invalid_arg", "This person or team is already on the drop's list; change their role instead.");
    throw error;
  }
}

async function entryOf(tx: Tx, dropId: string, id: string) {
  const row = await tx.dropMember.findFirst({ where: { id, dropId }, include: MEMBER_INCLUDE });
  if (!row) throw new ApiError("not_found", `No entry ${id} on this drop's list.`);
  return row;
}

export async function setDropMemberRole(userId: string, slug: string, id: string, role: MemberRole): Promise<DropMemberJson> {
  await assertWriteAllowed(userId);
  return transaction(async (tx) => {
    const drop = await getDropFor(userId, slug, "owner", tx);
    const entry = await entryOf(tx, drop.id, id);
    if (entry.teamId === null) await assertMayEdit(role, entry.userId, entry.email, tx);
    const row = await tx.dropMember.update({ where: { id: entry.id }, data: { role }, include: MEMBER_INCLUDE });
    await dropChanged(tx, drop);
    const member = toMemberJson(row);
    recordDropEvent(tx, "access.changed", drop.id, { access: { change: "role_changed", level: drop.access, member } });
    return member;
  });
}

export async function removeDropMember(userId: string, slug: string, id: string): Promise<void> {
  await assertWriteAllowed(userId);
  await transaction(async (tx) => {
    const drop = await getDropFor(userId, slug, "owner", tx);
    const entry = await entryOf(tx, drop.id, id);
    await tx.dropMember.delete({ where: { id: entry.id } });
    await dropChanged(tx, drop);
    recordDropEvent(tx, "access.changed", drop.id, { access: { change: "member_removed", level: drop.access, member: toMemberJson(entry) } });
  });
}
