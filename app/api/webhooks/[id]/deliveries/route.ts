import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { webhookIdSchema } from "@/lib/schemas/webhooks";
import { listDeliveries } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const GET = withToken<{ id: string }>("listWebhookDeliveries", async ({ caller, params }) =>
  jsonResponse({ deliveries: await listDeliveries(caller.userId, parseInput(webhookIdSchema, params.id)) }),
);

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/webhooks/{id}/deliveries");
