import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { listComments, postOwnerComment } from "@/lib/comments/comments";
import { createCommentBodySchema, listCommentsQuerySchema } from "@/lib/schemas/comments";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

type Params = { slug: string };

export const GET = withToken<Params>("listComments", async ({ request, caller, params }) => {
  const query = parseInput(listCommentsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return jsonResponse(await listComments(caller.userId, params.slug, query));
});

export const POST = withToken<Params>("createComment", async ({ request, caller, params }) => {
  const input = parseInput(createCommentBodySchema, await readJsonBody(request));
  return jsonResponse(await postOwnerComment(caller.userId, params.slug, input), 201);
});

export const { PUT, PATCH, DELETE } = methodsNotServedAt("/api/drops/{slug}/comments");
