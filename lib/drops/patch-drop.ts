import { now } from "@/lib/clock";
import { transaction } from "@/lib/db";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { DropJson, PatchDropInput } from "@/lib/schemas/drops";
import { assertAccessAllowed, assertOwnerOnlyFields, assertSlug, getDropFor, normalizeDescription, replaceTags } from "./access";
import { dropChanged } from "./changed";
import { resolveExpiry } from "./expiry";
import { toDropJson } from "./serialize";
import { recordDropEvent } from "@/lib/events/record";

/** PATCH: changes fields (expiry included), never the version list. */
export async function patchDrop(userId: string, slug: string, input: PatchDropInput): Promise<DropJson> {
  assertSlug(slug);
  const expiresAt = resolveExpiry(input, now());
  assertAccessAllowed(input.access);
  await assertWriteAllowed(userId);
  const patched = await transaction(async (tx) => {
    const drop = await getDropFor(userId, slug, "editor", tx);
    assertOwnerOnlyFields(drop, userId, input);
    const description = normalizeDescription(input.description);
    // The row update comes first: it locks the drop, so concurrent PATCHes and PUTs replace its tags
    // one at a time (as a PUT does, which locks it first too) instead of colliding on the tag keys.
    await tx.drop.update({
      where: { id: drop.id },
      data: {
        updatedAt: new Date(now()),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        ...(input.comments !== undefined ? { commentPolicy: input.comments } : {}),
        ...(input.indexable !== undefined ? { indexable: input.indexable } : {}),
        ...(input.access !== undefined ? { access: input.access } : {}),
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(description !== undefined ? { description } : {}),
      },
    });
    if (input.metadata) await replaceTags(tx, drop, input.metadata);
    await dropChanged(tx, drop);
    recordDropEvent(tx, "drop.updated", drop.id);
    if (input.access !== undefined && input.access !== drop.access) recordDropEvent(tx, "access.changed", drop.id, { access: { change: "level", level: input.access } });
    return toDropJson(await tx.drop.findUniqueOrThrow({ where: { id: drop.id }, include: { tags: true } }));
  });
  return patched;
}
