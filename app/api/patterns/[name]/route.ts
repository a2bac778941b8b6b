import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, noContent, otherMethods } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { deletePattern, getPattern, savePattern } from "@/lib/patterns";
import { assertWriteBudgetLeft } from "@/lib/ratelimit";
import { parseInput } from "@/lib/schemas/errors";
import { savePatternBodySchema } from "@/lib/schemas/patterns";

export const dynamic = "force-dynamic";

type Params = { name: string };

export const GET = withToken<Params>("GET /api/patterns/{name}", async ({ caller, params }) => jsonResponse(await getPattern(caller.userId, params.name)));

/** Adds the pattern (201) or replaces the account's own of that name (200). */
export const PUT = withToken<Params>("PUT /api/patterns/{name}", async ({ request, caller, params }) => {
  await assertWriteBudgetLeft(caller.userId);
  const input = parseInput(savePatternBodySchema, await readJsonBody(request));
  const { pattern, created } = await savePattern(caller.userId, params.name, input);
  return jsonResponse(pattern, created ? 201 : 200);
});

export const DELETE = withToken<Params>("DELETE /api/patterns/{name}", async ({ caller, params }) => {
  await deletePattern(caller.userId, params.name);
  return noContent();
});

export const { POST, PATCH } = otherMethods("GET", "PUT", "DELETE");
