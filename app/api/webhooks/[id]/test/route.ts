import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { parseInput } from "@/lib/schemas/errors";
import { webhookIdSchema } from "@/lib/schemas/webhooks";
import { sendTestEvent } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const POST = withToken<{ id: string }>("testWebhook", async ({ caller, params }) => jsonResponse(await sendTestEvent(caller.userId, parseInput(webhookIdSchema, params.id))));

export const { GET, PUT, PATCH, DELETE } = methodsNotServedAt("/api/webhooks/{id}/test");
