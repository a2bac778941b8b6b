import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt, noContent } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { memberIdSchema, patchDropMemberBodySchema } from "@/lib/schemas/sharing";
import { removeDropMember, setDropMemberRole } from "@/lib/sharing/members";

export const dynamic = "force-dynamic";

type Params = { slug: string; id: string };

export const PATCH = withToken<Params>("setDropMemberRole", async ({ request, caller, params }) => {
  const id = parseInput(memberIdSchema, params.id);
  const { role } = parseInput(patchDropMemberBodySchema, await readJsonBody(request));
  return jsonResponse(await setDropMemberRole(caller.userId, params.slug, id, role));
});

export const DELETE = withToken<Params>("removeDropMember", async ({ caller, params }) => {
  await removeDropMember(caller.userId, params.slug, parseInput(memberIdSchema, params.id));
  return noContent();
});

export const { GET, POST, PUT } = methodsNotServedAt("/api/drops/{slug}/members/{id}");
