// The outbox (issue 33): every change is recorded as an event in the transaction that makes it, so no
// change is announced that did not happen and none that happened is lost. The event's id is the cursor.
import { now } from "@/lib/clock";
import { afterCommit, beforeCommit, type Tx } from "@/lib/db";
import type { CommentJson } from "@/lib/schemas/comments";
import type { DropJson } from "@/lib/schemas/drops";
import { toDropJson } from "@/lib/drops/serialize";
import { scheduleDigest } from "@/lib/notifications/schedule";
import { newId } from "@/lib/security/random";
import { endpointWants, parseEndpointFilters } from "@/lib/webhooks/match";
import { DELIVERY_SCHEDULE_MS } from "@/lib/webhooks/schedule";
import { requestDelivery } from "@/lib/webhooks/worker";
import type { EventType } from "./types";

/** The payload's `data`: the drop as the API shows it, and what the event is about. */
export type EventData = {
  drop: DropJson;
  version?: { number: number; created_at?: number; size_bytes?: number };
  comment?: CommentJson;
  access?: { change: "level" | "member_added" | "member_removed" | "role_changed"; level: string; member?: unknown };
};

export type NewEvent = { type: EventType; ownerId: string; dropId: string | null; data: EventData };


/** The exact bytes a delivery sends: Standard Webhooks' `{type, timestamp, data}`. */
export function webhookBody(type: string, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

async function insertEvent(tx: Tx, event: NewEvent, recorded?: (tx: Tx, id: number) => Promise<void>): Promise<void> {
  const endpoints = await tx.webhookEndpoint.findMany({ where: { userId: event.ownerId, disabledAt: null }, select: { id: true, events: true, drops: true, metadata: true } });
  await scheduleDigest(tx, event);
  const createdAt = new Date(now());
  const row = await tx.event.create({
    data: { type: event.type, ownerId: event.ownerId, dropId: event.dropId, data: JSON.stringify(event.data), createdAt },
    select: { id: true },
  });
  if (recorded) {
    // The callback may put the cursor into the data (a comment's), so the row is written again with it.
    await recorded(tx, row.id);
    await tx.event.update({ where: { id: row.id }, data: { data: JSON.stringify(event.data) } });
  }
  const wanting = endpoints.filter((endpoint) => endpointWants(parseEndpointFilters(endpoint), event.type, event.data.drop));
  if (wanting.length === 0) return;
  const body = webhookBody(event.type, createdAt, event.data);
  await tx.webhookDelivery.createMany({
    data: wanting.map((endpoint) => ({
      id: `msg_${newId()}`,
      endpointId: endpoint.id,
      eventId: row.id,
      type: event.type,
      body,
      status: "pending",
      retriesLeft: DELIVERY_SCHEDULE_MS.length,
      nextAttemptAt: createdAt,
      createdAt,
    })),
  });
  // Delivery starts once the change is visible, and never inside the request that made it.
  afterCommit(tx, requestDelivery);
}

/**
 * Records `event` as the last step of the transaction `tx`, with one delivery per endpoint of the owner
 * that wants it; `recorded` gets the event's id (a comment keeps it as its cursor).
 *
 * On PostgreSQL a sequence hands out ids in the order transactions ask, not the order they commit: a
 * reader could see id 8 before id 7 commits and skip it. Cursors are compared within one drop (its
 * comments' after=), and every transaction that records a drop's event has locked the drop's row first
 * (dropChanged updates it, a delete removes it) and holds that lock to its commit; the id is drawn
 * last, so one drop's ids commit in order, and different drops' writes never wait for each other.
 * SQLite has one writer at a time already.
 */
export function recordEvent(tx: Tx, event: NewEvent, recorded?: (tx: Tx, id: number) => Promise<void>): void {
  beforeCommit(tx, (tx) => insertEvent(tx, event, recorded));
}

/**
 * Records an event about a drop that still exists when `tx` commits: `data.drop` is the drop as the
 * transaction leaves it (read at the end, so a PUT's event shows its new title and version).
 */
export function recordDropEvent(tx: Tx, type: EventType, dropId: string, extra: Omit<EventData, "drop"> = {}, recorded?: (tx: Tx, id: number) => Promise<void>): void {
  beforeCommit(tx, async (tx) => {
    const row = await tx.drop.findUnique({ where: { id: dropId }, include: { tags: true } });
    if (row) await insertEvent(tx, { type, ownerId: row.ownerId, dropId, data: { drop: toDropJson(row), ...extra } }, recorded);
  });
}
