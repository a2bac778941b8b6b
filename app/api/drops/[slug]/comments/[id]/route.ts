import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, noContent, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { deleteComment, setCommentResolved } from "@/lib/comments/comments";
import { commentIdSchema, patchCommentBodySchema } from "@/lib/schemas/comments";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

type Params = { slug: string; id: string };

export const PATCH = withToken<Params>("resolveComment", async ({ request, caller, params }) => {
  const id = parseInput(commentIdSchema, params.id);
  const { resolved } = parseInput(patchCommentBodySchema, await readJsonBody(request));
  return jsonResponse(await setCommentResolved(caller.userId, params.slug, id, resolved));
});

export const DELETE = withToken<Params>("deleteComment", async ({ caller, params }) => {
  await deleteComment(caller.userId, params.slug, parseInput(commentIdSchema, params.id));
  return noContent();
});

export const { GET, POST, PUT } = methodsNotServedAt("/api/drops/{slug}/comments/{id}");
