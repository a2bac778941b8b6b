import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { addTeamMemberBodySchema, teamIdSchema } from "@/lib/schemas/sharing";
import { addTeamMember } from "@/lib/sharing/teams";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const POST = withToken<Params>("addTeamMember", async ({ request, caller, params }) => {
  const teamId = parseInput(teamIdSchema, params.id);
  const input = parseInput(addTeamMemberBodySchema, await readJsonBody(request));
  return jsonResponse(await addTeamMember(caller.userId, teamId, input), 201);
});

export const { GET, PUT, PATCH, DELETE } = methodsNotServedAt("/api/teams/{id}/members");
