import { getConfig } from "@/lib/config";
import { PATTERN_CATALOG_PATH } from "@/lib/patterns/paths";
import { COMMENT_LIMITS } from "@/lib/schemas/comments";

/** When the purge deletes an expired drop (EXPIRED_RETENTION_DAYS), as the documents say it: "deleted …". */
export function expiredDeletion(days: number): string {
  return days === 0 ? "at the next purge after the expiry" : `${days} day${days === 1 ? "" : "s"} after the expiry`;
}

/** The paragraphs that teach an agent htmldrop; every number comes from the running configuration. */
export function mcpGuide() {
  const { limits, expiredRetentionDays } = getConfig();
  return {
    versioning:
      `Versioning: a drop has a stable slug and public url. create_drop makes version 1; every update_drop uploads new html as the next ` +
      `version (latest_version + 1) while url stays the same. Viewers see the latest version; append ?v=N to url or raw_url to pin one. ` +
      `patch_drop changes title, description and metadata without creating a version. At most ${limits.versionsPerDrop} versions per drop; ` +
      `delete_version frees room (the only remaining version cannot be deleted: delete the drop instead). diff_versions shows what changed ` +
      `between two versions as a unified diff.`,
    metadata:
      `Metadata: an owner-only map of string tags, never shown to viewers. At most ${limits.metadataMaxKeys} keys; keys are case-insensitive ` +
      `(stored lower-case), use letters, digits, '_', '.', '-', neither start nor end with '.' or '-', and are at most ${limits.metadataKeyMaxChars} ` +
      `characters; values are strings of at most ${limits.metadataValueMaxChars} characters (send numbers and booleans as strings). ` +
      `When update_drop or patch_drop is given metadata it replaces the whole map; omitted, it stays unchanged; {} clears it.`,
    recipe:
      `Lookup then mutate (there is no upsert): tag a drop when you create it, e.g. metadata {"project": "weekly-report"}. To update it later, ` +
      `call list_drops with metadata {"project": "weekly-report"}; if data[0] exists, call update_drop with its slug, otherwise create_drop. ` +
      `Two writers that both find nothing each create a drop, so serialize such writers.`,
    limits:
      `Limits: html at most ${limits.htmlMaxBytes} bytes, context at most ${limits.contextMaxBytes} bytes, title at most ${limits.titleMaxChars} ` +
      `characters, description at most ${limits.descriptionMaxChars}, passcode at least ${limits.passcodeMinChars} characters, ` +
      `${limits.dropsPerAccount} drops per account. Every write (create, update, patch, delete, set_passcode, delete_version) counts against ` +
      `${limits.writesPerMinute} writes per minute and ${limits.writesPerDay} per day per account; a 429-class error carries ` +
      `details.retry_after_seconds.`,
    expiry:
      `Expiry: give create_drop, update_drop or patch_drop ttl_seconds (seconds from now) or expires_at (Unix milliseconds) when a link should ` +
      `stop working; expires_at null removes the expiry. Afterwards url and raw_url answer 410 Gone to everybody, while you still see the drop ` +
      `(expired: true) and may extend it, until it is deleted ${expiredDeletion(expiredRetentionDays)}. ` +
      `list_drops with expired true or false finds one kind or the other.`,
    stats:
      `Views: drop_stats tells whether anyone looked, as views per UTC day and per version. A view is a browser showing the viewer page; ` +
      `bots that say so, prefetches and the owner's own views while signed in are not counted.`,
    comments:
      `Comments: patch_drop with comments "signed_in" or "anyone" lets viewers comment under the drop ("off", the default, stops it); create_drop ` +
      `takes comments too, and without it a drop gets the account's default, which stays "off" unless its owner chose another. A comment may carry an anchor, ` +
      `the passage a viewer selected ({exact, prefix?, suffix?}: the text, and a little text either side of it); read it to know what they mean. ` +
      `Before you revise a drop, call list_comments with status "open" and address what people asked for; then pass the ids you addressed ` +
      `as resolves to update_drop, which resolves each with a reply naming the new version (an id the drop lacks fails the whole update). ` +
      `reply_to_comment answers without a new version; resolve_comment resolves or reopens one. To poll, pass since = the created_at of the ` +
      `newest comment you have. Comments are plain text of at most ${COMMENT_LIMITS.bodyMaxChars} characters, and never count as writes.`,
    patterns:
      `Patterns: before you write HTML for a page, pick a pattern whose triggers match what you were asked for (list_patterns, or the MCP ` +
      `prompts and resources of the same names; the public catalog is ${PATTERN_CATALOG_PATH}/index.json). get_pattern gives its guide and ` +
      `starting template: follow the checklist, keep the page self-contained, then publish with create_drop. The account's own patterns ` +
      `(save_pattern, delete_pattern, or the dashboard's Patterns page) come before built-in ones of the same name.`,
    errors:
      `Errors: a failed call returns isError with {"error": {"code", "message", "details"?}}, the same object as the REST API; ` +
      `switch on error.code (e.g. not_found, title_too_long, version_conflict, rate_limited).`,
  };
}

/** Sent once at initialize: what the whole server is for and how its tools fit together. */
export function mcpInstructions(): string {
  const guide = mcpGuide();
  return [
    "htmldrop publishes self-contained HTML documents (drops) at stable public URLs, as the account that owns the bearer token.",
    "The html must stand alone (inline CSS and JS; external script and style URLs are allowed): it is served as uploaded inside a sandboxed iframe.",
    guide.patterns,
    guide.versioning,
    guide.metadata,
    guide.recipe,
    guide.expiry,
    guide.stats,
    guide.comments,
    guide.limits,
    guide.errors,
  ].join("\n\n");
}
