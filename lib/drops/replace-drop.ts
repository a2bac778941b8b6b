import { getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { db, isUniqueViolation, transaction } from "@/lib/db";
import { prepareBlob, storeBlob } from "@/lib/blobs";
import { ApiError } from "@/lib/errors";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { DropJson, ReplaceDropInput } from "@/lib/schemas/drops";
import { newId } from "@/lib/security/random";
import { assertAccessAllowed, assertOwnerOnlyFields, assertSlug, getDropFor, normalizeDescription, replaceTags } from "./access";
import { resolveExpiry } from "./expiry";
// Up a floor, deliberately: a PUT resolves the comments it names in its own transaction.
import { resolveWithVersion } from "@/lib/comments/comments";
import { toDropJson } from "./serialize";
import { dropChanged } from "./changed";
import { recordDropEvent } from "@/lib/events/record";

function versionConflict(latestVersion: number, expected?: number): ApiError {
  const message =
    expected === undefined
      ? "Another write minted the next version first; re-fetch the drop and retry."
      : `The drop is at version ${latestVersion}, not ${expected}: re-fetch it, merge, and retry with If-Match: "${latestVersion}".`;
  return new ApiError("version_conflict", message, { latest_version: latestVersion });
}

/**
 * PUT: always mints a new version. The version counter is advanced by one conditional UPDATE, so
 * concurrent PUTs serialize on the drop's row and each gets its own number; `expectedVersion`
 * (from If-Match) refuses the write when the head has moved since the caller read it.
 */
export async function replaceDrop(userId: string, slug: string, input: ReplaceDropInput, expectedVersion?: number): Promise<DropJson> {
  assertSlug(slug);
  const expiresAt = resolveExpiry(input, now());
  assertAccessAllowed(input.access);
  await assertWriteAllowed(userId);
  const { limits } = getConfig();
  // Planning the served form is slow for large documents: do it before the transaction holds any lock.
  const prepared = await prepareBlob(input.html, userId);
  let replaced: DropJson;
  try {
    replaced = await transaction(async (tx) => {
      const drop = await getDropFor(userId, slug, "editor", tx);
      assertOwnerOnlyFields(drop, userId, input);
      if (expectedVersion !== undefined && expectedVersion !== drop.latestVersion) throw versionConflict(drop.latestVersion, expectedVersion);
      const advanced = await tx.drop.updateMany({
        where: {
          id: drop.id,
          versionCount: { lt: limits.versionsPerDrop },
          ...(expectedVersion !== undefined ? { latestVersion: expectedVersion } : {}),
        },
        data: { versionSeq: { increment: 1 }, versionCount: { increment: 1 } },
      });
      const current = await tx.drop.findUniqueOrThrow({ where: { id: drop.id }, select: { versionSeq: true, versionCount: true, latestVersion: true } });
      if (advanced.count === 0) {
        if (current.versionCount >= limits.versionsPerDrop) {
          throw new ApiError("version_limit_reached", `Drop ${slug} has reached its limit of ${limits.versionsPerDrop} versions; delete old versions to add more.`, {
            limit: limits.versionsPerDrop,
            retry_after_seconds: 3600,
          });
        }
        throw versionConflict(current.latestVersion, expectedVersion);
      }
      const blob = await storeBlob(tx, prepared);
      const at = new Date(now());
      await tx.version.create({
        data: { id: newId(), dropId: drop.id, number: current.versionSeq, blobSha: blob.sha256, sizeBytes: blob.sizeBytes, context: input.context || null, createdAt: at },
      });
      if (input.metadata) await replaceTags(tx, drop, input.metadata);
      if (input.resolves) await resolveWithVersion(tx, drop, input.resolves, current.versionSeq, at);
      const description = normalizeDescription(input.description);
      const updated = await tx.drop.update({
        where: { id: drop.id },
        data: {
          latestVersion: current.versionSeq,
          updatedAt: at,
          ...(expiresAt !== undefined ? { expiresAt } : {}),
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(description !== undefined ? { description } : {}),
          ...(input.access !== undefined ? { access: input.access } : {}),
        },
        include: { tags: true },
      });
      await dropChanged(tx, drop);
      recordDropEvent(tx, "version.created", drop.id, { version: { number: current.versionSeq, created_at: at.getTime(), size_bytes: blob.sizeBytes } });
      if (input.access !== undefined && input.access !== drop.access) recordDropEvent(tx, "access.changed", drop.id, { access: { change: "level", level: input.access } });
      return toDropJson(updated);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const latest = await db().drop.findUnique({ where: { slug }, select: { latestVersion: true } });
      throw versionConflict(latest?.latestVersion ?? 0);
    }
    throw error;
  }
  return replaced;
}
