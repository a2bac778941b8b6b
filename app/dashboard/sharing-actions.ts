"use server";

// The dashboard's sharing writes: a drop's access level and list, and teams. Each one calls the lib
// service REST calls (lib/sharing, patchDrop), inside the skeleton every dashboard action shares.
import { patchDrop } from "@/lib/drops";
import { dashboardAction, refused } from "@/lib/dashboard/action";
import { keepingPosted, ok, toFormState } from "@/lib/dashboard/form-state";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import { dashboardDropPath } from "@/lib/dashboard/paths";
import { addPersonBodyFromForm, addTeamBodyFromForm, roleFromForm, teamMemberBodyFromForm, teamNameFromForm } from "@/lib/dashboard/sharing";
import { dropAccessSchema } from "@/lib/schemas/drops";
import { memberIdSchema, teamIdSchema } from "@/lib/schemas/sharing";
import { addDropMember, removeDropMember, setDropMemberRole } from "@/lib/sharing/members";
import { addTeamMember, createTeam, deleteTeam, removeTeamMember } from "@/lib/sharing/teams";
import { formText as text } from "@/lib/dashboard/text-upload";

const TEAMS_PATH = "/dashboard/teams";

/** The drop's page, and "Shared with me" of whoever the change admits or drops. */
function sharingPages(slug: string): string[] {
  return [dashboardDropPath(slug), "/dashboard", "/dashboard/shared"];
}

export const setAccessAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const access = dropAccessSchema.safeParse(text(form, "access"));
  if (!access.success) return refused(DASHBOARD_MESSAGES.accessMissing);
  await patchDrop(owner, slug, { access: access.data });
  return { state: ok(DASHBOARD_MESSAGES.accessSaved), revalidate: sharingPages(slug) };
});

export const addDropPersonAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  if (text(form, "person").trim() === "") return refused(DASHBOARD_MESSAGES.personMissing);
  const added = await addDropMember(owner, slug, addPersonBodyFromForm(form));
  return { state: ok(added.pending ? DASHBOARD_MESSAGES.memberPending : DASHBOARD_MESSAGES.memberAdded), revalidate: sharingPages(slug) };
}, keepingPosted(["person", "role"]));

export const addDropTeamAction = dashboardAction(
  async (owner, form) => {
    const slug = text(form, "slug");
    if (text(form, "team_id") === "") return refused(DASHBOARD_MESSAGES.teamMissing);
    await addDropMember(owner, slug, addTeamBodyFromForm(form));
    return { state: ok(DASHBOARD_MESSAGES.memberAdded), revalidate: sharingPages(slug) };
  },
  // The team, not the drop, is what a stale form most likely names.
  (error) => toFormState(error, DASHBOARD_MESSAGES.teamNotFound),
);

const memberError = (error: unknown) => toFormState(error, DASHBOARD_MESSAGES.memberNotFound);

export const setMemberRoleAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const id = memberIdSchema.safeParse(text(form, "id"));
  if (!id.success) return refused(DASHBOARD_MESSAGES.memberNotFound);
  await setDropMemberRole(owner, slug, id.data, roleFromForm(form));
  return { state: ok(DASHBOARD_MESSAGES.roleSaved), revalidate: sharingPages(slug) };
}, memberError);

export const removeMemberAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const id = memberIdSchema.safeParse(text(form, "id"));
  if (!id.success) return refused(DASHBOARD_MESSAGES.memberNotFound);
  await removeDropMember(owner, slug, id.data);
  return { state: ok(DASHBOARD_MESSAGES.memberRemoved), revalidate: sharingPages(slug) };
}, memberError);

const teamError = (error: unknown) => toFormState(error, DASHBOARD_MESSAGES.teamNotFound);

export const createTeamAction = dashboardAction(async (owner, form) => {
  if (text(form, "name").trim() === "") return refused(DASHBOARD_MESSAGES.teamNameMissing);
  await createTeam(owner, teamNameFromForm(form));
  return { state: ok(DASHBOARD_MESSAGES.teamCreated), revalidate: [TEAMS_PATH] };
}, keepingPosted(["name"]));

export const addTeamMemberAction = dashboardAction(async (owner, form) => {
  const team = teamIdSchema.safeParse(text(form, "team_id"));
  if (!team.success) return refused(DASHBOARD_MESSAGES.teamNotFound);
  if (text(form, "person").trim() === "") return refused(DASHBOARD_MESSAGES.personMissing);
  await addTeamMember(owner, team.data, teamMemberBodyFromForm(form));
  return { state: ok(DASHBOARD_MESSAGES.teamMemberAdded), revalidate: [TEAMS_PATH] };
}, keepingPosted(["person"], DASHBOARD_MESSAGES.teamNotFound));

/** The maker removes a member; a member removing their own entry leaves, and the team leaves their page. */
export const removeTeamMemberAction = dashboardAction(async (owner, form) => {
  const team = teamIdSchema.safeParse(text(form, "team_id"));
  const member = memberIdSchema.safeParse(text(form, "id"));
  if (!team.success || !member.success) return refused(DASHBOARD_MESSAGES.teamNotFound);
  await removeTeamMember(owner, team.data, member.data);
  if (text(form, "intent") === "leave") return { redirectTo: `${TEAMS_PATH}?notice=teamLeft`, revalidate: [TEAMS_PATH, "/dashboard/shared"] };
  return { state: ok(DASHBOARD_MESSAGES.teamMemberRemoved), revalidate: [TEAMS_PATH] };
}, teamError);

export const deleteTeamAction = dashboardAction(async (owner, form) => {
  const team = teamIdSchema.safeParse(text(form, "team_id"));
  if (!team.success) return refused(DASHBOARD_MESSAGES.teamNotFound);
  await deleteTeam(owner, team.data);
  return { redirectTo: `${TEAMS_PATH}?notice=teamDeleted`, revalidate: [TEAMS_PATH] };
}, teamError);
