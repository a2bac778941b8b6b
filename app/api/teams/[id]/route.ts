import { jsonResponse, methodsNotServedAt, noContent } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { teamIdSchema } from "@/lib/schemas/sharing";
import { deleteTeam, getTeam } from "@/lib/sharing/teams";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = withToken<Params>("getTeam", async ({ caller, params }) => jsonResponse(await getTeam(caller.userId, parseInput(teamIdSchema, params.id))));

export const DELETE = withToken<Params>("deleteTeam", async ({ caller, params }) => {
  await deleteTeam(caller.userId, parseInput(teamIdSchema, params.id));
  return noContent();
});

export const { POST, PUT, PATCH } = methodsNotServedAt("/api/teams/{id}");
