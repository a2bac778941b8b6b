import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import type { CommentPolicy } from "@/lib/schemas/comments";
import type { DropJson } from "@/lib/schemas/drops";
import type { DropAccess } from "@/lib/sharing/levels";
import { effectiveAccess } from "./access-decision";
import { isExpired } from "./expiry";
import { publicUrl } from "./public-urls";

/** A moment as either kind of read gives it: Prisma's Date, or Unix ms from a prepared statement (lib/db/reads.ts). */
type Moment = Date | number;

/**
 * A drop with its tags, as Prisma reads it or as a prepared statement does (drop-rows.ts): there the
 * dates are Unix ms, `indexable` may be 0 or 1 and, on SQLite, the tags are JSON text.
 */
export type DropRow = {
  slug: string;
  title: string;
  description: string | null;
  passcodeHash: string | null;
  latestVersion: number;
  viewCount: number;
  expiresAt: Moment | null;
  commentPolicy: string;
  indexable: boolean | number;
  access: string;
  createdAt: Moment;
  updatedAt: Moment;
  tags: string | { key: string; value: string }[];
};

const unixMs = (moment: Moment) => (typeof moment === "number" ? moment : moment.getTime());

/** The metadata object, its keys in code-unit order. */
function metadataOf(stored: DropRow["tags"]): Record<string, string> {
  const tags = typeof stored === "string" ? (JSON.parse(stored) as { key: string; value: string }[]) : stored.slice();
  if (tags.length > 1) tags.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return Object.fromEntries(tags.map((tag) => [tag.key, tag.value]));
}

export function dropUrls(slug: string): { url: string; raw_url: string } {
  const config = getConfig();
  return { url: publicUrl(config.publicUrl, slug), raw_url: publicUrl(config.contentOrigin, slug, "raw") };
}

/**
 * `at` decides `expired`; the additions (expiry, comments, indexable, access) appear only when set, so a
 * client of the spec sees its shape. Built field by field, in the order the JSON shows them: the get and
 * the list make one for every drop they answer, and spreads of optional parts cost each a copy (issue 35).
 */
export function toDropJson(drop: DropRow, at: number = now()): DropJson {
  const json: Partial<DropJson> = { slug: drop.slug, title: drop.title };
  // The spec types description as an optional string: absent rather than null when there is none.
  if (drop.description !== null) json.description = drop.description;
  const { url, raw_url } = dropUrls(drop.slug);
  json.url = url;
  json.raw_url = raw_url;
  json.locked = drop.passcodeHash !== null;
  json.latest_version = drop.latestVersion;
  json.view_count = drop.viewCount;
  json.metadata = metadataOf(drop.tags);
  json.created_at = unixMs(drop.createdAt);
  json.updated_at = unixMs(drop.updatedAt);
  if (drop.expiresAt !== null) {
    json.expires_at = unixMs(drop.expiresAt);
    json.expired = isExpired(drop.expiresAt, at);
  }
  if (drop.commentPolicy !== "off") json.comments = drop.commentPolicy as Exclude<CommentPolicy, "off">;
  if (drop.indexable) json.indexable = true;
  const access = effectiveAccess(drop.access);
  if (access !== "public") json.access = access as Exclude<DropAccess, "public">;
  return json as DropJson;
}
