import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import type { CommentPolicy } from "@/lib/schemas/comments";
import type { DropJson } from "@/lib/schemas/drops";
import type { DropAccess } from "@/lib/sharing/levels";
import { effectiveAccess } from "./access-decision";
import { isExpired } from "./expiry";
import { publicUrl } from "./public-urls";

export type DropRow = {
  slug: string;
  title: string;
  description: string | null;
  passcodeHash: string | null;
  latestVersion: number;
  viewCount: number;
  expiresAt: Date | null;
  commentPolicy: string;
  indexable: boolean;
  access: string;
  createdAt: Date;
  updatedAt: Date;
  tags: { key: string; value: string }[];
};

export function dropUrls(slug: string): { url: string; raw_url: string } {
  const config = getConfig();
  return { url: publicUrl(config.publicUrl, slug), raw_url: publicUrl(config.contentOrigin, slug, "raw") };
}

/**
 * `at` decides `expired`; the additions (expiry, comments, indexable) appear only when set, so a client
 * of the spec sees its shape.
 */
export function toDropJson(drop: DropRow, at: number = now()): DropJson {
  const tags = [...drop.tags].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    slug: drop.slug,
    title: drop.title,
    // The spec types description as an optional string: absent rather than null when there is none.
    ...(drop.description !== null ? { description: drop.description } : {}),
    ...dropUrls(drop.slug),
    locked: drop.passcodeHash !== null,
    latest_version: drop.latestVersion,
    view_count: drop.viewCount,
    metadata: Object.fromEntries(tags.map((tag) => [tag.key, tag.value])),
    created_at: drop.createdAt.getTime(),
    updated_at: drop.updatedAt.getTime(),
    ...(drop.expiresAt !== null ? { expires_at: drop.expiresAt.getTime(), expired: isExpired(drop.expiresAt, at) } : {}),
    ...(drop.commentPolicy !== "off" ? { comments: drop.commentPolicy as Exclude<CommentPolicy, "off"> } : {}),
    ...(drop.indexable ? { indexable: true as const } : {}),
    ...(effectiveAccess(drop.access) !== "public" ? { access: effectiveAccess(drop.access) as Exclude<DropAccess, "public"> } : {}),
  };
}
