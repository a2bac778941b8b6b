import { z } from "zod";
import { EVENT_TYPES, TEST_EVENT_TYPE } from "@/lib/events/types";
import { hasNoNul, nulMessage, slugSchema, unixMillisSchema } from "./common";
import { metadataFilterMapSchema } from "./drops";

const ENDPOINT_URL_MAX = 2000;
export const WEBHOOK_LIMITS = { endpointsPerAccount: 20, description: 500, drops: 100, deliveriesListed: 50 } as const;

export const webhookIdSchema = z.string().regex(/^wh_[A-Za-z0-9]{20}$/, "a webhook id is wh_ and 20 letters and digits").describe("The endpoint's id.");
export const deliveryIdSchema = z.string().regex(/^msg_[A-Za-z0-9]{20}$/, "a delivery id is msg_ and 20 letters and digits").describe("The delivery's id, sent as its webhook-id header.");

export const eventTypeSchema = z.enum(EVENT_TYPES, { error: `each event must be one of ${EVENT_TYPES.join(", ")}` });

const urlField = z
  .string()
  .max(ENDPOINT_URL_MAX, `url must be at most ${ENDPOINT_URL_MAX} characters`)
  .describe("Where deliveries are POSTed: https, on a public address (checked after DNS resolution and on every redirect).");
const eventsField = z.array(eventTypeSchema).min(1, "events must name at least one event").max(EVENT_TYPES.length).describe(`The events it receives, among: ${EVENT_TYPES.join(", ")}.`);
const descriptionField = z.string().max(WEBHOOK_LIMITS.description, `description must be at most ${WEBHOOK_LIMITS.description} characters`).refine(hasNoNul, nulMessage("description"));
const dropsField = z
  .array(slugSchema)
  .min(1, "drops must name at least one slug, or be left out for every drop")
  .max(WEBHOOK_LIMITS.drops)
  .describe("Only events of these drops (slugs); left out or null: every drop of the account.");
const metadataField = metadataFilterMapSchema.describe("Only events of drops carrying every one of these tags; left out or null: any drop.");

export const createWebhookBodySchema = z.strictObject({
  url: urlField,
  events: eventsField,
  description: descriptionField.optional(),
  drops: dropsField.optional(),
  metadata: metadataField.optional(),
});

export const patchWebhookBodySchema = z.strictObject({
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.nullable().optional(),
  drops: dropsField.nullable().optional(),
  metadata: metadataField.nullable().optional(),
  enabled: z.boolean().optional().describe("true enables an endpoint disabled after persistent failure; its waiting deliveries go out again."),
});

export const webhookSchema = z
  .object({
    id: webhookIdSchema,
    url: z.string(),
    description: z.string().optional(),
    events: z.array(eventTypeSchema),
    drops: z.array(z.string()).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    enabled: z.boolean().describe("false once every retry of a delivery failed (about a day): see disabled_reason."),
    disabled_at: unixMillisSchema.optional(),
    disabled_reason: z.string().optional(),
    created_at: unixMillisSchema,
    updated_at: unixMillisSchema,
  })
  .describe("Webhook");

export const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().describe("The signing secret (whsec_…), shown only in this response: verify each delivery's webhook-signature with it.") })
  .describe("CreatedWebhook");

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

export const deliveryAttemptSchema = z.object({
  attempt: z.number().int().min(1),
  at: unixMillisSchema,
  status_code: z.number().int().nullable().describe("The endpoint's HTTP status; null when it gave none (refused, unreachable, timed out)."),
  duration_ms: z.number().int(),
  error: z.string().optional(),
});

export const deliverySchema = z
  .object({
    id: deliveryIdSchema,
    event_id: z.number().int().optional().describe("The event's cursor; absent on test events."),
    type: z.union([eventTypeSchema, z.literal(TEST_EVENT_TYPE)]),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempts: z.number().int().min(0),
    next_attempt_at: unixMillisSchema.optional().describe("When a pending delivery is tried next."),
    created_at: unixMillisSchema,
    log: z.array(deliveryAttemptSchema).describe("Each attempt, oldest first."),
  })
  .describe("WebhookDelivery");

export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema).describe(`Newest first, at most ${WEBHOOK_LIMITS.deliveriesListed}.`) });

export type CreateWebhookInput = z.output<typeof createWebhookBodySchema>;
export type PatchWebhookInput = z.output<typeof patchWebhookBodySchema>;
export type WebhookJson = z.infer<typeof webhookSchema>;
export type CreatedWebhookJson = z.infer<typeof createdWebhookSchema>;
export type DeliveryJson = z.infer<typeof deliverySchema>;

export const deliveryRunSchema = z
  .object({
    attempted: z.number().int().describe("Deliveries this run tried."),
    succeeded: z.number().int().describe("Of those, the ones the endpoint accepted (2xx)."),
  })
  .describe("DeliveryRun");
