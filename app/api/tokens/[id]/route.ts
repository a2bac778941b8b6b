import { revokeToken } from "@/lib/accounts/tokens";
import { noContent, otherMethods } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { tokenIdSchema } from "@/lib/schemas/accounts";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

export const DELETE = withToken<{ id: string }>("DELETE /api/tokens/{id}", async ({ caller, params }) => {
  await revokeToken(caller.userId, parseInput(tokenIdSchema, params.id, "id"));
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
