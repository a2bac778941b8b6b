import { readJsonBody } from "@/lib/api/body";
import { listDropsRoute } from "@/lib/api/drop-routes";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { assertCreateBudgetLeft, createDrop } from "@/lib/drops";
import { assertIdempotencyKey } from "@/lib/drops/idempotency";
import { createDropBodySchema } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

export const GET = listDropsRoute;

export const POST = withToken("createDrop", async ({ request, caller }) => {
  const idempotencyKey = request.headers.get("idempotency-key") ?? undefined;
  if (idempotencyKey !== undefined) assertIdempotencyKey(idempotencyKey);
  await assertCreateBudgetLeft(caller.userId, idempotencyKey);
  const input = parseInput(createDropBodySchema, await readJsonBody(request, { carriesHtml: true }));
  const result = await createDrop(caller.userId, input, idempotencyKey);
  return jsonResponse(result.body, result.status, result.replayed ? { "idempotent-replayed": "true" } : {});
});

export const { PUT, PATCH, DELETE } = methodsNotServedAt("/api/drops");
