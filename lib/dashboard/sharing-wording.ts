// How the dashboard names the sharing model: the access levels it offers, their one-line explanations,
// the badges drop lists show and the roles. Every page and form reads these words here.
import type { DropAccess, MemberRole } from "@/lib/sharing/levels";
import { DROP_ACCESS_LEVELS, MEMBER_ROLES } from "@/lib/sharing/levels";
import type { DropMemberJson } from "@/lib/schemas/sharing";

type AccessWording = { label: string; explanation: string; badge: string | null };

const ACCESS_WORDING: Record<DropAccess, AccessWording> = {
  public: { label: "Public", explanation: "Anyone with the link can open it, without signing in.", badge: null },
  signed_in: { label: "Signed-in people", explanation: "Anyone signed in to this htmldrop can open it; others are asked to sign in.", badge: "Signed-in" },
  restricted: { label: "Restricted", explanation: "Only you and the people and teams listed below can open it.", badge: "Restricted" },
};

export type AccessChoice = { value: DropAccess } & AccessWording;

/** The levels an owner may choose; public only where the instance allows public drops. */
export function accessChoices(publicAllowed: boolean): AccessChoice[] {
  return DROP_ACCESS_LEVELS.filter((level) => publicAllowed || level !== "public").map((value) => ({ value, ...ACCESS_WORDING[value] }));
}

/** The drop JSON's `access` (absent when public) as the small badge of a list row; null for public. */
export function accessBadge(access: DropAccess | undefined): string | null {
  return ACCESS_WORDING[access ?? "public"].badge;
}

/** The level as a sentence for the Share card. */
export function describeAccess(access: DropAccess | undefined): string {
  const wording = ACCESS_WORDING[access ?? "public"];
  return `${wording.label}: ${wording.explanation}`;
}

export const ROLE_CHOICES: { value: MemberRole; label: string }[] = MEMBER_ROLES.map((value) => ({
  value,
  label: value === "viewer" ? "Viewer: opens the drop" : "Editor: also publishes versions and edits details",
}));

/** Who an entry of a drop's list is, as the list names it. */
export function memberName(member: DropMemberJson): string {
  if (member.kind === "team") return member.team_name ?? "A team";
  return member.login ?? member.email ?? member.id;
}

/** Who a team member is, as the team's card names them. */
export function teamMemberName(member: { id: string; login?: string; email?: string }): string {
  return member.login ?? member.email ?? member.id;
}
