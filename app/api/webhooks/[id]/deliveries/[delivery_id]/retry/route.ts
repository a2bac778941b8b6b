import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { deliveryIdSchema, webhookIdSchema } from "@/lib/schemas/webhooks";
import { retryDelivery } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const POST = withToken<{ id: string; delivery_id: string }>("retryWebhookDelivery", async ({ caller, params }) =>
  jsonResponse(await retryDelivery(caller.userId, parseInput(webhookIdSchema, params.id), parseInput(deliveryIdSchema, params.delivery_id))),
);

export const { GET, PUT, PATCH, DELETE } = methodsNotServedAt("/api/webhooks/{id}/deliveries/{delivery_id}/retry");
