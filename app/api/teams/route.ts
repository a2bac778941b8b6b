import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { createTeamBodySchema } from "@/lib/schemas/sharing";
import { createTeam, listTeams } from "@/lib/sharing/teams";

export const dynamic = "force-dynamic";

export const GET = withToken("listTeams", async ({ caller }) => jsonResponse({ teams: await listTeams(caller.userId) }));

export const POST = withToken("createTeam", async ({ request, caller }) => {
  const { name } = parseInput(createTeamBodySchema, await readJsonBody(request));
  return jsonResponse(await createTeam(caller.userId, name), 201);
});

export const { PUT, PATCH, DELETE } = methodsNotServedAt("/api/teams");
