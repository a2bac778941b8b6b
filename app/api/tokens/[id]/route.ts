import { revokeToken } from "@/lib/accounts/tokens";
import { noContent, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { tokenIdSchema } from "@/lib/schemas/accounts";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

export const DELETE = withToken<{ id: string }>("revokeToken", async ({ caller, params }) => {
  await revokeToken(caller.userId, parseInput(tokenIdSchema, params.id, "id"), caller);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = methodsNotServedAt("/api/tokens/{id}");
