import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt, noContent } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { patchWebhookBodySchema, webhookIdSchema } from "@/lib/schemas/webhooks";
import { deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = withToken<Params>("getWebhook", async ({ caller, params }) => jsonResponse(await getWebhook(caller.userId, parseInput(webhookIdSchema, params.id))));

export const PATCH = withToken<Params>("updateWebhook", async ({ request, caller, params }) => {
  const id = parseInput(webhookIdSchema, params.id);
  return jsonResponse(await updateWebhook(caller.userId, id, parseInput(patchWebhookBodySchema, await readJsonBody(request))));
});

export const DELETE = withToken<Params>("deleteWebhook", async ({ caller, params }) => {
  await deleteWebhook(caller.userId, parseInput(webhookIdSchema, params.id));
  return noContent();
});

export const { POST, PUT } = methodsNotServedAt("/api/webhooks/{id}");
