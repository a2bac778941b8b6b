// The dashboard's sharing pages: what the Share card, the Teams page and "Shared with me" load, and how
// their forms become the bodies the REST routes take (validated by the same schemas).
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db";
import { listDrops } from "@/lib/drops";
import { isApiError } from "@/lib/errors";
import type { DropListJson } from "@/lib/schemas/drops";
import { addDropMemberBodySchema, addTeamMemberBodySchema, createTeamBodySchema, memberRoleSchema, type DropMemberJson, type TeamJson } from "@/lib/schemas/sharing";
import type { MemberRole } from "@/lib/sharing/levels";
import { listDropMembers } from "@/lib/sharing/members";
import { getTeam, listTeams } from "@/lib/sharing/teams";
import { accessChoices, type AccessChoice } from "./sharing-wording";
import { parseForm } from "./form-state";
import { formText as text } from "./text-upload";

export const SHARED_PAGE_SIZE = 50;

/** One box takes a login or an email: an "@" makes it an email. */
export function inviteeFromText(value: string): { login: string } | { email: string } {
  const trimmed = value.trim();
  return trimmed.includes("@") ? { email: trimmed } : { login: trimmed };
}

export function roleFromForm(form: FormData): MemberRole {
  return parseForm(memberRoleSchema, text(form, "role"));
}

/** "Add a person": POST /api/drops/{slug}/members's body. */
export function addPersonBodyFromForm(form: FormData) {
  return parseForm(addDropMemberBodySchema, { ...inviteeFromText(text(form, "person")), role: text(form, "role") });
}

/** "Add a team": the same body, naming one of the owner's teams. */
export function addTeamBodyFromForm(form: FormData) {
  return parseForm(addDropMemberBodySchema, { team_id: text(form, "team_id"), role: text(form, "role") });
}

export function teamNameFromForm(form: FormData): string {
  return parseForm(createTeamBodySchema, { name: text(form, "name") }).name;
}

/** POST /api/teams/{id}/members's body. */
export function teamMemberBodyFromForm(form: FormData) {
  return parseForm(addTeamMemberBodySchema, inviteeFromText(text(form, "person")));
}

export type ShareCard = { members: DropMemberJson[]; teams: TeamJson[]; choices: AccessChoice[] };

/** The Share card of a drop: its list, the teams it may be shared with and the levels offered; null unless the caller owns the drop. */
export async function loadShareCard(userId: string, slug: string): Promise<ShareCard | null> {
  try {
    const [members, teams] = await Promise.all([listDropMembers(userId, slug), listTeams(userId)]);
    return { members, teams, choices: accessChoices(getConfig().sharing.publicAllowed) };
  } catch (error) {
    // An editor sees the drop's page but not its list.
    if (isApiError(error) && (error.code === "forbidden" || error.code === "not_found")) return null;
    throw error;
  }
}

/** A team with its members, and the caller's own entry (to leave by), when the caller is one of them. */
export type TeamView = TeamJson & { members: NonNullable<TeamJson["members"]>; selfMemberId: string | null };

/** The teams the account made or belongs to, each with its members. */
export async function loadTeams(userId: string): Promise<TeamView[]> {
  const [teams, own] = await Promise.all([listTeams(userId), db().teamMember.findMany({ where: { userId }, select: { id: true, teamId: true } })]);
  const selfIn = new Map(own.map((entry) => [entry.teamId, entry.id]));
  const full = await Promise.all(teams.map((team) => getTeam(userId, team.id)));
  return full.map((team) => ({ ...team, members: team.members ?? [], selfMemberId: selfIn.get(team.id) ?? null }));
}

function pageNumber(value: string | string[] | undefined): number {
  const page = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** One page of the drops other accounts shared with the caller, most recently changed first. */
export async function loadSharedDrops(userId: string, params: Record<string, string | string[] | undefined>): Promise<DropListJson> {
  return listDrops(userId, { shared: true, page: pageNumber(params.page), pageSize: SHARED_PAGE_SIZE, sortBy: "updated_at", sortOrder: "desc", metadata: [] });
}

