// Teams: any account makes one and manages its members; a member may leave. A team on a drop's list
// admits whoever is its member at the moment of each request.
import { now } from "@/lib/clock";
import { db, isUniqueViolation, transaction, type Tx } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { TeamJson } from "@/lib/schemas/sharing";
import { newId } from "@/lib/security/random";
import { existingAccountOf, normalizeInvitee } from "./invitations";

/** Teams an account may have: enough for any org chart, few enough that a list stays one page. */
export const TEAMS_PER_ACCOUNT = 100;
export const MEMBERS_PER_TEAM = 500;

const MEMBERS = { members: { include: { user: { select: { login: true } } }, orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] } };
type TeamRow = { id: string; name: string; ownerId: string; createdAt: Date };
type TeamMemberRow = { id: string; userId: string | null; email: string | null; login: string | null; user: { login: string | null } | null };

function toTeamJson(team: TeamRow, userId: string, members?: TeamMemberRow[]): TeamJson {
  return {
    id: team.id,
    name: team.name,
    owned: team.ownerId === userId,
    created_at: team.createdAt.getTime(),
    ...(members
      ? {
          members: members.map((member) => {
            const login = member.user?.login ?? member.login;
            return { id: member.id, ...(login ? { login } : {}), ...(member.email ? { email: member.email } : {}), pending: member.userId === null };
          }),
        }
      : {}),
  };
}

export async function createTeam(userId: string, name: string): Promise<TeamJson> {
  await assertWriteAllowed(userId);
  return transaction(async (tx) => {
    if ((await tx.team.count({ where: { ownerId: userId } })) >= TEAMS_PER_ACCOUNT) {
      throw new ApiError("quota_exceeded", `An account may make at most ${TEAMS_PER_ACCOUNT} teams.`, { limit: TEAMS_PER_ACCOUNT });
    }
    const createdAt = new Date(now());
    // The maker is its first member.
    const team = await tx.team.create({ data: { id: newId(), name, ownerId: userId, createdAt, members: { create: { id: newId(), userId, createdAt } } }, include: MEMBERS });
    return toTeamJson(team, userId, team.members);
  });
}

/** The teams the account made or belongs to. */
export async function listTeams(userId: string): Promise<TeamJson[]> {
  const teams = await db().team.findMany({ where: { OR: [{ ownerId: userId }, { members: { some: { userId } } }] }, orderBy: [{ name: "asc" }, { id: "asc" }] });
  return teams.map((team) => toTeamJson(team, userId));
}

/** A team the account made or belongs to; anyone else is told it does not exist. */
async function visibleTeam(userId: string, teamId: string, client: Tx = db()) {
  const team = await client.team.findUnique({ where: { id: teamId }, include: MEMBERS });
  if (!team || (team.ownerId !== userId && !team.members.some((member) => member.userId === userId))) throw new ApiError("not_found", `No team with id ${teamId}.`);
  return team;
}

export async function getTeam(userId: string, teamId: string): Promise<TeamJson> {
  const team = await visibleTeam(userId, teamId);
  return toTeamJson(team, userId, team.members);
}

function assertMaker(team: TeamRow, userId: string, what: string): void {
  if (team.ownerId !== userId) throw new ApiError("forbidden", `Only the team's maker may ${what}.`);
}

export async function addTeamMember(userId: string, teamId: string, input: { login?: string; email?: string }): Promise<TeamJson> {
  await assertWriteAllowed(userId);
  try {
    return await transaction(async (tx) => {
      const team = await visibleTeam(userId, teamId, tx);
      assertMaker(team, userId, "add members");
      if (team.members.length >= MEMBERS_PER_TEAM) throw new ApiError("quota_exceeded", `A team has at most ${MEMBERS_PER_TEAM} members.`, { limit: MEMBERS_PER_TEAM });
      const invitee = normalizeInvitee(input);
      const account = await existingAccountOf(invitee, tx);
      if (account === "ambiguous") throw new ApiError("invalid_arg", "More than one account has this login; add the person by email.", { fields: [{ field: "login", message: "ambiguous" }] });
      await tx.teamMember.create({ data: { id: newId(), teamId, createdAt: new Date(now()), ...(account ? { userId: account.id } : invitee) } });
      const updated = await visibleTeam(userId, teamId, tx);
      return toTeamJson(updated, userId, updated.members);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("invalid_arg", "This person is already on the team.");
    throw error;
  }
}

/** The maker removes anyone but themselves; a member removes only themselves (leaves). */
export async function removeTeamMember(userId: string, teamId: string, memberId: string): Promise<void> {
  await assertWriteAllowed(userId);
  await transaction(async (tx) => {
    const team = await visibleTeam(userId, teamId, tx);
    const member = team.members.find((candidate) => candidate.id === memberId);
    if (!member) throw new ApiError("not_found", `No member ${memberId} in this team.`);
    if (member.userId !== userId) assertMaker(team, userId, "remove other members");
    else if (team.ownerId === userId) throw new ApiError("invalid_arg", "The team's maker cannot leave it; delete the team instead.");
    await tx.teamMember.delete({ where: { id: member.id } });
  });
}

export async function deleteTeam(userId: string, teamId: string): Promise<void> {
  await assertWriteAllowed(userId);
  await transaction(async (tx) => {
    const team = await visibleTeam(userId, teamId, tx);
    assertMaker(team, userId, "delete it");
    await tx.team.delete({ where: { id: team.id } });
  });
}
