// The one announcement of a write to a drop. Every cached rendering of a drop carries its revision,
// which the write bumps in its own transaction; on Vercel, where Next's shared pages stand in for npm
// start's page cache, the drop's pages are also expired by tag once the write commits. On PostgreSQL the
// write returns once every instance has dropped the serving lookups' rows it kept (lib/db/kept-rows.ts).
import { revalidateTag } from "next/cache";
import { afterCommit, type Tx } from "@/lib/db";
import { settleKeptRows } from "@/lib/db/kept-rows";

/** The transactions whose commit already waits for the kept rows: one wait covers every drop they change. */
const settling = new WeakSet<Tx>();

export function sharesRenderedPages(): boolean {
  return process.env.VERCEL === "1";
}

/** The tag of everything Next caches about one drop's viewer page. */
export function dropPagesTag(slug: string): string {
  return `drop-pages:${slug}`;
}

/**
 * Called inside the transaction that changes (or deletes) a drop, from the request that writes it: the
 * next request renders anew. A deleted drop has no row left to bump; its pages are expired all the same.
 */
export async function dropChanged(tx: Tx, drop: { id: string; slug: string }): Promise<void> {
  await tx.drop.updateMany({ where: { id: drop.id }, data: { revision: { increment: 1 } } });
  afterCommit(tx, () => {
    if (sharesRenderedPages()) revalidateTag(dropPagesTag(drop.slug), { expire: 0 });
  });
  if (!settling.has(tx)) {
    settling.add(tx);
    afterCommit(tx, settleKeptRows);
  }
}
