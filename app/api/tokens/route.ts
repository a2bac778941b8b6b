import { createToken } from "@/lib/accounts/create-token";
import { listTokens } from "@/lib/accounts/tokens";
import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { assertWriteBudgetLeft } from "@/lib/ratelimit";
import { createTokenBodySchema } from "@/lib/schemas/accounts";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

/** A label, three scopes and a hundred slugs fit many times over. */
const TOKEN_BODY_MAX_BYTES = 16 * 1024;

export const GET = withToken("listTokens", async ({ caller }) => jsonResponse(await listTokens(caller.userId, caller)));

export const POST = withToken("createToken", async ({ request, caller }) => {
  await assertWriteBudgetLeft(caller.userId);
  const input = parseInput(createTokenBodySchema, await readJsonBody(request, { emptyAs: {}, maxBytes: TOKEN_BODY_MAX_BYTES }));
  return jsonResponse(await createToken(caller, input), 201);
});

export const { PUT, PATCH, DELETE } = methodsNotServedAt("/api/tokens");
