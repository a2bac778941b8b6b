import { methodsNotServedAt, noContent } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { memberIdSchema, teamIdSchema } from "@/lib/schemas/sharing";
import { removeTeamMember } from "@/lib/sharing/teams";

export const dynamic = "force-dynamic";

type Params = { id: string; member_id: string };

export const DELETE = withToken<Params>("removeTeamMember", async ({ caller, params }) => {
  await removeTeamMember(caller.userId, parseInput(teamIdSchema, params.id), parseInput(memberIdSchema, params.member_id));
  return noContent();
});

export const { GET, POST, PUT, PATCH } = methodsNotServedAt("/api/teams/{id}/members/{member_id}");
