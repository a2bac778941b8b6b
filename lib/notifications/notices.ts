// What the owner is told of (issue 33): a comment someone else wrote on one of their drops. The notices
// are read from the event outbox (lib/events), so the dashboard and the emails tell the same things, and
// an instance without SMTP loses nothing but the email.
import { db } from "@/lib/db";

/** The event types that make a notice; comment.created only when the owner did not write it. */
export const NOTICE_EVENT_TYPES = ["comment.created"] as const;

export type Notice = {
  eventId: number;
  at: number;
  drop: { slug: string; title: string };
  comment: { author: string; body: string; quote: string | null; replyTo: boolean };
};

type StoredEvent = { id: number; type: string; data: string; createdAt: Date };

type CommentEventData = {
  drop?: { slug?: unknown; title?: unknown };
  comment?: { body?: unknown; quote?: unknown; reply_to?: unknown; author?: { name?: unknown; kind?: unknown } };
};

/** The notice an event makes, or null: another type, or the owner's own comment. */
export function noticeFromEvent(event: StoredEvent): Notice | null {
  if (!(NOTICE_EVENT_TYPES as readonly string[]).includes(event.type)) return null;
  const data = JSON.parse(event.data) as CommentEventData;
  const { drop, comment } = data;
  if (!drop || !comment || comment.author?.kind === "owner") return null;
  return {
    eventId: event.id,
    at: event.createdAt.getTime(),
    drop: { slug: String(drop.slug), title: String(drop.title) },
    comment: {
      author: String(comment.author?.name ?? "someone"),
      body: String(comment.body ?? ""),
      quote: typeof comment.quote === "string" ? comment.quote : null,
      replyTo: typeof comment.reply_to === "string",
    },
  };
}

export const NOTICES_SHOWN = 20;

/** The account's newest notices, newest first, for the dashboard. */
export async function listNotices(ownerId: string, limit = NOTICES_SHOWN): Promise<Notice[]> {
  const events = await db().event.findMany({
    where: { ownerId, type: { in: [...NOTICE_EVENT_TYPES] } },
    orderBy: { id: "desc" },
    // The owner's own comments are skipped after reading, so read a few more than are shown.
    take: limit * 3,
    select: { id: true, type: true, data: true, createdAt: true },
  });
  return events.flatMap((event) => noticeFromEvent(event) ?? []).slice(0, limit);
}
