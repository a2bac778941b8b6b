import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { DropJson, PatchDropInput } from "@/lib/schemas/drops";
import { assertSlug, getOwnedDrop, normalizeDescription, replaceTags } from "./access";
import { toDropJson } from "./serialize";

/** PATCH: changes fields, never the version list. */
export async function patchDrop(userId: string, slug: string, input: PatchDropInput): Promise<DropJson> {
  assertSlug(slug);
  await assertWriteAllowed(userId);
  return db().$transaction(async (tx) => {
    const drop = await getOwnedDrop(userId, slug, tx);
    if (input.metadata) await replaceTags(tx, drop.id, input.metadata);
    const description = normalizeDescription(input.description);
    const updated = await tx.drop.update({
      where: { id: drop.id },
      data: {
        updatedAt: new Date(now()),
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(description !== undefined ? { description } : {}),
      },
      include: { tags: true },
    });
    return toDropJson(updated);
  });
}
