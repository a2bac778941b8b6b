import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, noContent, otherMethods } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { deleteComment, setCommentResolved } from "@/lib/comments/comments";
import { commentIdSchema, patchCommentBodySchema } from "@/lib/schemas/comments";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

type Params = { slug: string; id: string };

export const PATCH = withToken<Params>("PATCH /api/drops/{slug}/comments/{id}", async ({ request, caller, params }) => {
  const id = parseInput(commentIdSchema, params.id);
  const { resolved } = parseInput(patchCommentBodySchema, await readJsonBody(request));
  return jsonResponse(await setCommentResolved(caller.userId, params.slug, id, resolved));
});

export const DELETE = withToken<Params>("DELETE /api/drops/{slug}/comments/{id}", async ({ caller, params }) => {
  await deleteComment(caller.userId, params.slug, parseInput(commentIdSchema, params.id));
  return noContent();
});

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
