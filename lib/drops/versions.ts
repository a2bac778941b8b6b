import { now } from "@/lib/clock";
import { db, transaction } from "@/lib/db";
import { deleteOrphanBlobs } from "@/lib/blobs";
import { ApiError } from "@/lib/errors";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { DropJson, VersionJson, VersionListItemJson } from "@/lib/schemas/drops";
import { assertSlug, getDropFor } from "./access";
import { toDropJson } from "./serialize";
import { dropChanged } from "./changed";
import { recordDropEvent } from "@/lib/events/record";

function versionNotFound(slug: string, number: number): ApiError {
  return new ApiError("version_not_found", `Drop ${slug} has no version ${number}.`);
}

export async function listVersions(userId: string, slug: string): Promise<VersionListItemJson[]> {
  const drop = await getDropFor(userId, slug, "editor");
  const versions = await db().version.findMany({
    where: { dropId: drop.id },
    orderBy: { number: "asc" },
    select: { number: true, sizeBytes: true, context: true, createdAt: true },
  });
  return versions.map((version) => ({
    version: version.number,
    size_bytes: version.sizeBytes,
    has_context: Boolean(version.context),
    created_at: version.createdAt.getTime(),
  }));
}

export async function getVersion(userId: string, slug: string, number: number): Promise<VersionJson> {
  const drop = await getDropFor(userId, slug, "editor");
  const version = await db().version.findUnique({ where: { dropId_number: { dropId: drop.id, number } } });
  if (!version) throw versionNotFound(slug, number);
  return {
    slug,
    version: version.number,
    size_bytes: version.sizeBytes,
    context: version.context,
    created_at: version.createdAt.getTime(),
    is_latest: version.number === drop.latestVersion,
  };
}

/**
 * The latest version's number and HTML, read as one pair, for editing the document: whoever publishes the
 * edit names that number as its base (If-Match), so a version published meanwhile is refused, not undone.
 */
export async function getLatestSource(userId: string, slug: string): Promise<{ version: number; html: string }> {
  const drop = await getDropFor(userId, slug, "editor");
  const version = await db().version.findUnique({ where: { dropId_number: { dropId: drop.id, number: drop.latestVersion } }, select: { blob: { select: { bytes: true } } } });
  if (!version) throw versionNotFound(slug, drop.latestVersion);
  return { version: drop.latestVersion, html: Buffer.from(version.blob.bytes).toString("utf8") };
}

/** Deletes one version; deleting the head makes the highest remaining version the head. */
export async function deleteVersion(userId: string, slug: string, number: number): Promise<DropJson> {
  assertSlug(slug);
  await assertWriteAllowed(userId);
  const remaining = await transaction(async (tx) => {
    const drop = await getDropFor(userId, slug, "owner", tx);
    const version = await tx.version.findUnique({ where: { dropId_number: { dropId: drop.id, number } }, select: { id: true, blobSha: true } });
    if (!version) throw versionNotFound(slug, number);
    if (drop.versionCount <= 1) {
      throw new ApiError("last_version_cannot_be_deleted", `Version ${number} is the only version of drop ${slug}; delete the drop instead.`);
    }
    await tx.version.delete({ where: { id: version.id } });
    const head = await tx.version.findFirstOrThrow({ where: { dropId: drop.id }, orderBy: { number: "desc" }, select: { number: true } });
    const updated = await tx.drop.update({
      where: { id: drop.id },
      data: { versionCount: { decrement: 1 }, latestVersion: head.number, updatedAt: new Date(now()) },
      include: { tags: true },
    });
    await deleteOrphanBlobs(tx, [version.blobSha]);
    await dropChanged(tx, drop);
    recordDropEvent(tx, "version.deleted", drop.id, { version: { number } });
    return toDropJson(updated);
  });
  return remaining;
}
