import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { createWebhookBodySchema } from "@/lib/schemas/webhooks";
import { createWebhook, listWebhooks } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const GET = withToken("listWebhooks", async ({ caller }) => jsonResponse({ webhooks: await listWebhooks(caller.userId) }));

export const POST = withToken("createWebhook", async ({ request, caller }) => {
  const input = parseInput(createWebhookBodySchema, await readJsonBody(request));
  return jsonResponse(await createWebhook(caller.userId, input), 201);
});

export const { PUT, PATCH, DELETE } = methodsNotServedAt("/api/webhooks");
