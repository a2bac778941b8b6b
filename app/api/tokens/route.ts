import { createToken } from "@/lib/accounts/create-token";
import { listTokens } from "@/lib/accounts/tokens";
import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, otherMethods } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { assertWriteBudgetLeft } from "@/lib/ratelimit";
import { createTokenBodySchema } from "@/lib/schemas/accounts";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

/** A label, three scopes and a hundred slugs fit many times over. */
const TOKEN_BODY_MAX_BYTES = 16 * 1024;

export const GET = withToken("GET /api/tokens", async ({ caller }) => jsonResponse(await listTokens(caller.userId)));

export const POST = withToken("POST /api/tokens", async ({ request, caller }) => {
  await assertWriteBudgetLeft(caller.userId);
  const input = parseInput(createTokenBodySchema, await readJsonBody(request, { emptyAs: {}, maxBytes: TOKEN_BODY_MAX_BYTES }));
  return jsonResponse(await createToken(caller, input), 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
