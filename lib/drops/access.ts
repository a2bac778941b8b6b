import { getConfig } from "@/lib/config";
import { db, type Tx } from "@/lib/db";
import { readRow, type HotRead, type HotReadCall, type RowRead } from "@/lib/db/reads";
import { ApiError } from "@/lib/errors";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import type { DropAccess } from "@/lib/sharing/levels";
import { standingOn } from "@/lib/sharing/standing";
import { admits, effectiveAccess } from "./access-decision";
import { DROP_ROW_COLUMNS, type StoredDropRow } from "./drop-rows";

export function assertSlug(slug: string): void {
  if (!SLUG_PATTERN.test(slug)) throw new ApiError("invalid_slug", `"${slug.slice(0, 80)}" is not a drop slug: slugs are 6 to 64 lower-case letters and digits.`);
}

/**
 * What an operation on one drop needs of the caller: `owner` (delete it, its versions, its list and its
 * access level) or `editor` (everything else the API does to a drop: the owner and the editors on its list).
 */
export type DropNeed = "owner" | "editor";

/**
 * Loads a drop the caller may act on. A drop the caller may not even open is not_found, exactly as a
 * missing one (a public drop can be opened by anyone, so another account's is forbidden, as the spec
 * says); one the caller may open but not act on in this way is forbidden.
 */
export async function getDropFor(userId: string, slug: string, need: DropNeed, client: Tx = db()) {
  assertSlug(slug);
  return admitted(await client.drop.findUnique({ where: { slug }, include: { tags: true } }), userId, slug, need, client);
}

/**
 * getDropFor's drop as a read shows it, read without Prisma: agents poll a drop (lib/db/reads.ts). `read`
 * is the drop's row when it was read already, alongside the caller's token (dropRowRead).
 */
export async function readDropFor(userId: string, slug: string, need: DropNeed, read?: RowRead<StoredDropRow>): Promise<StoredDropRow> {
  assertSlug(slug);
  const row = read ? read.found : await readRow<StoredDropRow>(DROP_WITH_TAGS, [slug]);
  return admitted(row, userId, slug, need, db());
}

/** The read of a drop with its tags, to go with another in one round trip; none for a malformed slug, which readDropFor refuses. */
export function dropRowRead(slug: string): HotReadCall | null {
  return SLUG_PATTERN.test(slug) ? { read: DROP_WITH_TAGS, values: [slug] } : null;
}

async function admitted<D extends { id: string; ownerId: string; access: string }>(drop: D | null | undefined, userId: string, slug: string, need: DropNeed, client: Tx): Promise<D> {
  // Made only when thrown: an error's stack trace is a noticeable part of a drop read's CPU time.
  const missing = () => new ApiError("not_found", `No drop with slug ${slug}.`);
  if (!drop) throw missing();
  if (drop.ownerId === userId) return drop;
  const standing = await standingOn(drop, userId, client);
  if (!admits(effectiveAccess(drop.access), standing)) throw missing();
  if (need === "editor" && standing.role === "editor") return drop;
  throw new ApiError("forbidden", need === "owner" || standing.role !== null ? `Only the owner of drop ${slug} may do this.` : `Drop ${slug} belongs to another account.`);
}

const DROP_WITH_TAGS: HotRead = {
  name: "htmldrop_drop_with_tags",
  sqlite: `SELECT ${DROP_ROW_COLUMNS.sqlite} FROM "Drop" d WHERE d."slug" = ?`,
  postgres: `SELECT ${DROP_ROW_COLUMNS.postgres} FROM "Drop" d WHERE d."slug" = $1`,
};

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

/** The access level a write asks for, refused when the instance forbids public drops (PUBLIC_DROPS=off). */
export function assertAccessAllowed(access: DropAccess | undefined): void {
  if (access !== "public" || getConfig().sharing.publicAllowed) return;
  throw new ApiError("invalid_arg", "This instance does not allow public drops (PUBLIC_DROPS=off): choose signed_in or restricted.", {
    fields: [{ field: "access", message: "public is not allowed on this instance" }],
  });
}

/** What only the owner changes, whoever else may edit the drop: who may open it, comment on it, or find it. */
export function assertOwnerOnlyFields(drop: { ownerId: string; slug: string }, userId: string, input: { access?: unknown; comments?: unknown; indexable?: unknown }): void {
  if (drop.ownerId === userId) return;
  const fields = (["access", "comments", "indexable"] as const).filter((field) => input[field] !== undefined);
  if (fields.length > 0) throw new ApiError("forbidden", `Only the owner of drop ${drop.slug} may change ${fields.join(", ")}.`);
}
