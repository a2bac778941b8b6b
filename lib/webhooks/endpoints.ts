// An account's webhook endpoints (issue 33): register, read, change and delete them, read their delivery
// log, send a test event and send a delivery again. REST, MCP and the dashboard all call these.
import { randomBytes } from "node:crypto";
import { now } from "@/lib/clock";
import { db, transaction } from "@/lib/db";
import { leaseRow, unleasedAt } from "@/lib/db/lease";
import { ApiError } from "@/lib/errors";
import { TEST_EVENT_TYPE } from "@/lib/events/types";
import { webhookBody } from "@/lib/events/record";
import { assertWriteAllowed } from "@/lib/ratelimit";
import { newId } from "@/lib/security/random";
import {
  WEBHOOK_LIMITS,
  type CreatedWebhookJson,
  type CreateWebhookInput,
  type DeliveryJson,
  type PatchWebhookInput,
  type WebhookJson,
} from "@/lib/schemas/webhooks";
import { parseEndpointFilters } from "./match";
import { registrationUrlProblem } from "./url-policy";
import { DELIVERIES, deliverClaimed } from "./worker";

type EndpointRow = {
  id: string;
  url: string;
  description: string | null;
  events: string;
  drops: string | null;
  metadata: string | null;
  createdAt: Date;
  updatedAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
};

const ENDPOINT_FIELDS = { id: true, url: true, description: true, events: true, drops: true, metadata: true, createdAt: true, updatedAt: true, disabledAt: true, disabledReason: true } as const;

export function toWebhookJson(row: EndpointRow): WebhookJson {
  const { events, drops, metadata } = parseEndpointFilters(row);
  return {
    id: row.id,
    url: row.url,
    ...(row.description !== null ? { description: row.description } : {}),
    events: events as WebhookJson["events"],
    ...(drops !== null ? { drops } : {}),
    ...(metadata !== null ? { metadata } : {}),
    enabled: row.disabledAt === null,
    ...(row.disabledAt !== null ? { disabled_at: row.disabledAt.getTime(), disabled_reason: row.disabledReason ?? "" } : {}),
    created_at: row.createdAt.getTime(),
    updated_at: row.updatedAt.getTime(),
  };
}

/** A Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

async function assertUrlAllowed(url: string): Promise<void> {
  const problem = await registrationUrlProblem(url);
  if (problem) throw new ApiError("invalid_arg", problem.charAt(0).toUpperCase() + problem.slice(1) + ".", { fields: [{ field: "url", message: problem }] });
}

async function findEndpoint(userId: string, id: string) {
  const row = await db().webhookEndpoint.findFirst({ where: { id, userId }, select: ENDPOINT_FIELDS });
  // Another account's endpoint is exactly as missing as one that never was.
  if (!row) throw new ApiError("not_found", `No webhook with id ${id}.`);
  return row;
}

export async function createWebhook(userId: string, input: CreateWebhookInput): Promise<CreatedWebhookJson> {
  await assertUrlAllowed(input.url);
  await assertWriteAllowed(userId);
  const secret = newSecret();
  const at = new Date(now());
  const row = await transaction(async (tx) => {
    if ((await tx.webhookEndpoint.count({ where: { userId } })) >= WEBHOOK_LIMITS.endpointsPerAccount) {
      throw new ApiError("quota_exceeded", `An account may have at most ${WEBHOOK_LIMITS.endpointsPerAccount} webhooks.`, { limit: WEBHOOK_LIMITS.endpointsPerAccount });
    }
    return tx.webhookEndpoint.create({
      data: {
        id: `wh_${newId()}`,
        userId,
        url: input.url,
        description: input.description || null,
        events: JSON.stringify([...new Set(input.events)]),
        drops: input.drops ? JSON.stringify([...new Set(input.drops)]) : null,
        metadata: input.metadata ? JSON.stringify(input.metadata) : null,
        secret,
        createdAt: at,
        updatedAt: at,
      },
      select: ENDPOINT_FIELDS,
    });
  });
  return { ...toWebhookJson(row), secret };
}

export async function listWebhooks(userId: string): Promise<WebhookJson[]> {
  const rows = await db().webhookEndpoint.findMany({ where: { userId }, select: ENDPOINT_FIELDS, orderBy: { createdAt: "asc" } });
  return rows.map(toWebhookJson);
}

export async function getWebhook(userId: string, id: string): Promise<WebhookJson> {
  return toWebhookJson(await findEndpoint(userId, id));
}

export async function updateWebhook(userId: string, id: string, input: PatchWebhookInput): Promise<WebhookJson> {
  await findEndpoint(userId, id);
  if (input.url !== undefined) await assertUrlAllowed(input.url);
  await assertWriteAllowed(userId);
  const row = await db().webhookEndpoint.update({
    where: { id },
    data: {
      updatedAt: new Date(now()),
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: JSON.stringify([...new Set(input.events)]) } : {}),
      ...(input.description !== undefined ? { description: input.description || null } : {}),
      ...(input.drops !== undefined ? { drops: input.drops === null ? null : JSON.stringify([...new Set(input.drops)]) } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata === null ? null : JSON.stringify(input.metadata) } : {}),
      ...(input.enabled === true ? { disabledAt: null, disabledReason: null } : {}),
      ...(input.enabled === false ? { disabledAt: new Date(now()), disabledReason: "Disabled by its owner." } : {}),
    },
    select: ENDPOINT_FIELDS,
  });
  return toWebhookJson(row);
}

export async function deleteWebhook(userId: string, id: string): Promise<void> {
  await findEndpoint(userId, id);
  await assertWriteAllowed(userId);
  await db().webhookEndpoint.deleteMany({ where: { id, userId } });
}

const DELIVERY_FIELDS = {
  id: true,
  eventId: true,
  type: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  createdAt: true,
  attemptLog: { select: { attempt: true, at: true, statusCode: true, durationMs: true, error: true }, orderBy: { at: "asc" } },
} as const;

type DeliveryRow = {
  id: string;
  eventId: number | null;
  type: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
  attemptLog: { attempt: number; at: Date; statusCode: number | null; durationMs: number; error: string | null }[];
};

function toDeliveryJson(row: DeliveryRow): DeliveryJson {
  return {
    id: row.id,
    ...(row.eventId !== null ? { event_id: row.eventId } : {}),
    type: row.type as DeliveryJson["type"],
    status: row.status as DeliveryJson["status"],
    attempts: row.attempts,
    ...(row.status === "pending" ? { next_attempt_at: row.nextAttemptAt.getTime() } : {}),
    created_at: row.createdAt.getTime(),
    log: row.attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      at: attempt.at.getTime(),
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      ...(attempt.error !== null ? { error: attempt.error } : {}),
    })),
  };
}

/** The delivery log: the endpoint's latest deliveries, newest first, each with its attempts. */
export async function listDeliveries(userId: string, id: string): Promise<DeliveryJson[]> {
  await findEndpoint(userId, id);
  const rows = await db().webhookDelivery.findMany({
    where: { endpointId: id },
    select: DELIVERY_FIELDS,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: WEBHOOK_LIMITS.deliveriesListed,
  });
  return rows.map(toDeliveryJson);
}

async function readDelivery(id: string): Promise<DeliveryJson> {
  return toDeliveryJson(await db().webhookDelivery.findUniqueOrThrow({ where: { id }, select: DELIVERY_FIELDS }));
}

/**
 * A test event, sent now and answered with its attempt: `{type: "webhook.test", data: {webhook_id}}`,
 * signed like every delivery. It is tried once, and its failure never disables the endpoint.
 */
export async function sendTestEvent(userId: string, id: string): Promise<DeliveryJson> {
  await findEndpoint(userId, id);
  await assertWriteAllowed(userId);
  const at = new Date(now());
  const { claim, columns: lease } = leaseRow(DELIVERIES, `msg_${newId()}`, at);
  await db().webhookDelivery.create({
    data: {
      id: claim.key,
      endpointId: id,
      type: TEST_EVENT_TYPE,
      body: webhookBody(TEST_EVENT_TYPE, at, { webhook_id: id }),
      status: "pending",
      retriesLeft: 0,
      manual: true,
      nextAttemptAt: at,
      // Claimed as it is made: this request sends it, no worker does.
      ...lease,
      createdAt: at,
    },
  });
  await deliverClaimed(claim);
  return readDelivery(claim.key);
}

/** "Send again": one more attempt of a delivery now, with the same webhook-id and body; its failure disables nothing. */
export async function retryDelivery(userId: string, id: string, deliveryId: string): Promise<DeliveryJson> {
  await findEndpoint(userId, id);
  await assertWriteAllowed(userId);
  const at = new Date(now());
  const { claim, columns: lease } = leaseRow(DELIVERIES, deliveryId, at);
  const { count } = await db().webhookDelivery.updateMany({
    where: { id: deliveryId, endpointId: id, ...unleasedAt(at) },
    data: { status: "pending", retriesLeft: 0, manual: true, nextAttemptAt: at, ...lease },
  });
  if (count === 0) {
    const exists = await db().webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: id }, select: { id: true } });
    if (!exists) throw new ApiError("not_found", `Webhook ${id} has no delivery ${deliveryId}.`);
    // Being sent right now (by a worker or another "send again"): that attempt stands for this one.
    return readDelivery(deliveryId);
  }
  await deliverClaimed(claim);
  return readDelivery(deliveryId);
}
