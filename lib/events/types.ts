// The event vocabulary (issue 33), written once: the outbox, webhook subscriptions, their schemas, the
// OpenAPI document, the docs and the dashboard all read it from here.

export const EVENT_TYPES = [
  "drop.created",
  "drop.updated",
  "version.created",
  "version.deleted",
  "drop.deleted",
  "drop.expired",
  "comment.created",
  "comment.resolved",
  "access.changed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** What each event means, for the docs, the OpenAPI document and the dashboard's checkboxes. */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  "drop.created": "A drop was published (its version 1).",
  "drop.updated": "A drop's title, description, metadata, expiry, passcode or settings changed without a new version.",
  "version.created": "A new version was published (PUT, update_drop or the dashboard).",
  "version.deleted": "One version was deleted.",
  "drop.deleted": "Its owner deleted the drop.",
  "drop.expired": "The expiry purge deleted the drop, EXPIRED_RETENTION_DAYS after its expiry passed.",
  "comment.created": "A comment or reply was posted (by a viewer or the owner).",
  "comment.resolved": "A comment was resolved.",
  "access.changed": "Who may open the drop changed: its access level, or a person or team added, removed or given another role.",
};

/** A test event from POST /api/webhooks/{id}/test: never recorded, never subscribed to. */
export const TEST_EVENT_TYPE = "webhook.test";
