// Batching (issue 33): the first notice for an account schedules its email about a minute on; the ones
// that follow join it, so fifty comments in a minute are one email.
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import type { Tx } from "@/lib/db";
import { NOTICE_EVENT_TYPES } from "./notices";

/** How long an account's first notice waits for others to join its email. */
export const DIGEST_WINDOW_MS = 60_000;

type Recorded = { type: string; ownerId: string; data: { comment?: { author?: { kind?: string } } } };

function makesNotice(event: Recorded): boolean {
  return (NOTICE_EVENT_TYPES as readonly string[]).includes(event.type) && event.data.comment?.author?.kind !== "owner";
}

/**
 * Called by the outbox before it draws the event's id, in the same transaction: schedules the owner's
 * email if none is pending. The upsert locks the owner's digest row to the commit, so on PostgreSQL one
 * owner's notices draw their ids in commit order and the sender, reading after the last id it mailed,
 * never skips one that commits late. An idle row (dueAt null) skips what happened while nothing was to
 * be sent (notifications off, no email), so only what follows is mailed.
 */
export async function scheduleDigest(tx: Tx, event: Recorded): Promise<void> {
  if (getConfig().mail === null || !makesNotice(event)) return;
  const owner = await tx.user.findUnique({
    where: { id: event.ownerId },
    select: { notifyComments: true, identities: { where: { email: { not: null } }, select: { id: true }, take: 1 } },
  });
  if (!owner?.notifyComments || owner.identities.length === 0) return;
  const dueAt = new Date(now() + DIGEST_WINDOW_MS);
  await tx.$executeRaw`
    INSERT INTO "NotificationDigest" ("userId", "dueAt", "throughEventId")
    VALUES (${event.ownerId}, ${dueAt}, (SELECT COALESCE(MAX("id"), 0) FROM "Event" WHERE "ownerId" = ${event.ownerId}))
    ON CONFLICT ("userId") DO UPDATE SET
      "throughEventId" = CASE WHEN "NotificationDigest"."dueAt" IS NULL THEN excluded."throughEventId" ELSE "NotificationDigest"."throughEventId" END,
      "dueAt" = COALESCE("NotificationDigest"."dueAt", excluded."dueAt")`;
}
