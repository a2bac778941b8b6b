import { type Prisma, type Tx, transaction } from "@/lib/db";
import { deleteOrphanBlobs } from "@/lib/blobs";
import { assertWriteAllowed } from "@/lib/ratelimit";
import { assertSlug, getDropFor } from "./access";
import { dropChanged } from "./changed";
import { recordEvent } from "@/lib/events/record";
import { toDropJson } from "./serialize";

/**
 * Removes a drop, its versions, tags and view counts, and any blob only it referenced, if it still
 * matches `condition` when its row is deleted: false when it did not (gone, or changed since it was read).
 * `event` says why: its owner deleted it, or the expiry purge did.
 */
export async function removeDropRows(
  tx: Tx,
  drop: { id: string; slug: string; ownerId: string },
  condition: Prisma.DropWhereInput = {},
  event: "drop.deleted" | "drop.expired" = "drop.deleted",
): Promise<boolean> {
  const versions = await tx.version.findMany({ where: { dropId: drop.id }, select: { blobSha: true } });
  // The event shows the drop as it was: after the delete there is no row to read.
  const last = await tx.drop.findUnique({ where: { id: drop.id }, include: { tags: true } });
  const { count } = await tx.drop.deleteMany({ where: { ...condition, id: drop.id } });
  if (count === 0 || !last) return false;
  recordEvent(tx, { type: event, ownerId: drop.ownerId, dropId: drop.id, data: { drop: toDropJson(last) } });
  await tx.user.update({ where: { id: drop.ownerId }, data: { dropCount: { decrement: 1 } } });
  await deleteOrphanBlobs(tx, versions.map((version) => version.blobSha));
  await dropChanged(tx, drop);
  return true;
}

export async function deleteDrop(userId: string, slug: string): Promise<void> {
  assertSlug(slug);
  await assertWriteAllowed(userId);
  await transaction(async (tx) => {
    await removeDropRows(tx, await getDropFor(userId, slug, "owner", tx));
  });
}
