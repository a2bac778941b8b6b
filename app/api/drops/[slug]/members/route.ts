import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { addDropMemberBodySchema } from "@/lib/schemas/sharing";
import { addDropMember, listDropMembers } from "@/lib/sharing/members";

export const dynamic = "force-dynamic";

type Params = { slug: string };

export const GET = withToken<Params>("listDropMembers", async ({ caller, params }) => jsonResponse({ members: await listDropMembers(caller.userId, params.slug) }));

export const POST = withToken<Params>("addDropMember", async ({ request, caller, params }) => {
  const input = parseInput(addDropMemberBodySchema, await readJsonBody(request));
  return jsonResponse(await addDropMember(caller.userId, params.slug, input), 201);
});

export const { PUT, PATCH, DELETE } = methodsNotServedAt("/api/drops/{slug}/members");
