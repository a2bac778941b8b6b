import { db } from "@/lib/db";
import { deleteOrphanBlobs } from "@/lib/blobs";
import { assertWriteAllowed } from "@/lib/ratelimit";
import { assertSlug, getOwnedDrop } from "./access";
import { expireDropPages } from "@/lib/serving/shared-pages";

/** Removes a drop, its versions and tags, and any blob only it referenced. */
export async function deleteDrop(userId: string, slug: string): Promise<void> {
  assertSlug(slug);
  await assertWriteAllowed(userId);
  await db().$transaction(async (tx) => {
    const drop = await getOwnedDrop(userId, slug, tx);
    const versions = await tx.version.findMany({ where: { dropId: drop.id }, select: { blobSha: true } });
    await tx.drop.delete({ where: { id: drop.id } });
    await tx.user.update({ where: { id: userId }, data: { dropCount: { decrement: 1 } } });
    await deleteOrphanBlobs(tx, versions.map((version) => version.blobSha));
  });
  expireDropPages(slug);
}
