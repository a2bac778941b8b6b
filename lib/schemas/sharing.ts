import { z } from "zod";
import { MEMBER_ROLES } from "@/lib/sharing/levels";
import { hasNoNul, nulMessage, unixMillisSchema } from "./common";

export const memberRoleSchema = z
  .enum(MEMBER_ROLES, { error: `role must be one of ${MEMBER_ROLES.join(", ")}` })
  .describe('"viewer" opens the drop; "editor" also publishes versions and changes its title, description, tags, passcode and expiry.');

const loginSchema = z.string().trim().min(1, "login must not be empty").max(100, "login must be at most 100 characters").refine(hasNoNul, nulMessage("login"));
const emailSchema = z.email({ error: "email must be an email address" }).max(254, "email must be at most 254 characters");
export const memberIdSchema = z.string().regex(/^[A-Za-z0-9]{20}$/, "an id is 20 letters and digits").describe("The entry's id.");
export const teamIdSchema = memberIdSchema.describe("The team's id.");

/** One person, by login or email: someone not signed in yet is invited, and admitted at their first sign-in. */
const personFields = { login: loginSchema.optional(), email: emailSchema.optional() };

/** A refinement for objects that take exactly one of several alternative fields. */
export function exactlyOne<T extends Record<string, unknown>>(fields: readonly (keyof T & string)[]) {
  return (input: T, ctx: z.RefinementCtx) => {
    if (fields.filter((field) => input[field] !== undefined).length !== 1) ctx.addIssue({ code: "custom", message: `give exactly one of ${fields.join(", ")}`, path: [] });
  };
}

export const dropMemberFields = { ...personFields, team_id: teamIdSchema.optional(), role: memberRoleSchema };
export const addDropMemberBodySchema = z.strictObject(dropMemberFields).superRefine(exactlyOne(["login", "email", "team_id"]));
export const patchDropMemberBodySchema = z.strictObject({ role: memberRoleSchema });

export const dropMemberSchema = z
  .object({
    id: memberIdSchema,
    kind: z.enum(["person", "team"]),
    login: z.string().optional().describe("A person's login, when known."),
    email: z.string().optional().describe("A pending person's email."),
    team_id: teamIdSchema.optional(),
    team_name: z.string().optional(),
    role: memberRoleSchema,
    pending: z.boolean().describe("A person invited by login or email who has not signed in yet: admits no one until they do."),
  })
  .describe("DropMember");
export const dropMemberListSchema = z.object({ members: z.array(dropMemberSchema) });

export const createTeamBodySchema = z.strictObject({
  name: z.string().trim().min(1, "name must not be empty").max(100, "name must be at most 100 characters").refine(hasNoNul, nulMessage("name")),
});
export const teamMemberFields = personFields;
export const addTeamMemberBodySchema = z.strictObject(teamMemberFields).superRefine(exactlyOne(["login", "email"]));

export const teamMemberSchema = z
  .object({ id: memberIdSchema, login: z.string().optional(), email: z.string().optional(), pending: z.boolean() })
  .describe("TeamMember");
export const teamSchema = z
  .object({
    id: teamIdSchema,
    name: z.string(),
    owned: z.boolean().describe("The caller made the team, so manages its members."),
    created_at: unixMillisSchema,
    members: z.array(teamMemberSchema).optional().describe("On GET /api/teams/{id} and after a change."),
  })
  .describe("Team");
export const teamListSchema = z.object({ teams: z.array(teamSchema) });

export type DropMemberJson = z.output<typeof dropMemberSchema>;
export type TeamJson = z.output<typeof teamSchema>;

export const removedResultSchema = z.object({ removed: z.literal(true), id: memberIdSchema });
export const deletedTeamResultSchema = z.object({ deleted: z.literal(true), id: teamIdSchema });
