import { db, type Tx } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { SLUG_PATTERN } from "@/lib/schemas/common";

export function assertSlug(slug: string): void {
  if (!SLUG_PATTERN.test(slug)) throw new ApiError("invalid_slug", `"${slug.slice(0, 80)}" is not a drop slug: slugs are 6 to 64 lower-case letters and digits.`);
}

/** Loads a drop the caller owns: not_found when it does not exist, forbidden when another account owns it. */
export async function getOwnedDrop(userId: string, slug: string, client: Tx = db()) {
  assertSlug(slug);
  const drop = await client.drop.findUnique({ where: { slug }, include: { tags: true } });
  if (!drop) throw new ApiError("not_found", `No drop with slug ${slug}.`);
  if (drop.ownerId !== userId) throw new ApiError("forbidden", `Drop ${slug} belongs to another account.`);
  return drop;
}

/** A drop's tag rows; each repeats the owner, whose index a metadata filter reads (lib/drops/list-drops.ts). */
export function tagRows(ownerId: string, metadata: Record<string, string>) {
  return Object.entries(metadata).map(([key, value]) => ({ ownerId, key, value }));
}

/** Replaces the whole metadata map of a drop: the spec's semantics for PUT and PATCH. */
export async function replaceTags(tx: Tx, drop: { id: string; ownerId: string }, metadata: Record<string, string>): Promise<void> {
  await tx.dropTag.deleteMany({ where: { dropId: drop.id } });
  if (Object.keys(metadata).length > 0) {
    await tx.dropTag.createMany({ data: tagRows(drop.ownerId, metadata).map((tag) => ({ dropId: drop.id, ...tag })) });
  }
}

/** "" and null both mean "no description". */
export function normalizeDescription(description: string | null | undefined): string | null | undefined {
  return description === "" ? null : description;
}
