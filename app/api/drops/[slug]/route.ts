import { readJsonBody } from "@/lib/api/body";
import { getDropRoute } from "@/lib/api/drop-routes";
import { parseIfMatch } from "@/lib/api/headers";
import { jsonResponse, noContent, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { assertWriteBudgetLeft } from "@/lib/ratelimit";
import { deleteDrop, patchDrop, replaceDrop } from "@/lib/drops";
import { parsePatchDropBody, replaceDropBodySchema } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

type Params = { slug: string };

export const GET = getDropRoute;

export const PUT = withToken<Params>("replaceDrop", async ({ request, caller, params }) => {
  const expectedVersion = parseIfMatch(request.headers.get("if-match"));
  await assertWriteBudgetLeft(caller.userId);
  const input = parseInput(replaceDropBodySchema, await readJsonBody(request, { carriesHtml: true }));
  return jsonResponse(await replaceDrop(caller.userId, params.slug, input, expectedVersion));
});

export const PATCH = withToken<Params>("patchDrop", async ({ request, caller, params }) => {
  await assertWriteBudgetLeft(caller.userId);
  const input = parsePatchDropBody(await readJsonBody(request));
  return jsonResponse(await patchDrop(caller.userId, params.slug, input));
});

export const DELETE = withToken<Params>("deleteDrop", async ({ caller, params }) => {
  await deleteDrop(caller.userId, params.slug);
  return noContent();
});

export const { POST } = methodsNotServedAt("/api/drops/{slug}");
