// View counts are gathered in memory and written in batches after the response, so a page view never
// waits on a write. At most one flush runs at a time; views recorded meanwhile go into the next batch.
// Each batch adds to the drop's view_count and to its per-day, per-version counters in one transaction.
import { now, utcDay } from "@/lib/clock";
import { db } from "@/lib/db";

type Tally = { dropId: string; version: number; day: number; count: number };
type ViewState = { pending: Map<string, Tally>; flushing: Promise<void> | null; retry: NodeJS.Timeout | null; oldestPendingAt: number | null };
const VIEWS_KEY = Symbol.for("htmldrop.views");
type ViewHolder = { [VIEWS_KEY]?: ViewState };

function state(): ViewState {
  const holder = globalThis as ViewHolder;
  return (holder[VIEWS_KEY] ??= { pending: new Map(), flushing: null, retry: null, oldestPendingAt: null });
}

/** For /metrics: views not yet written, and how long the oldest of them has waited (the flush lag). */
export function pendingViewStats(): { views: number; lagSeconds: number } {
  const { pending, oldestPendingAt } = state();
  const views = [...pending.values()].reduce((total, tally) => total + tally.count, 0);
  return { views, lagSeconds: oldestPendingAt === null ? 0 : (Date.now() - oldestPendingAt) / 1000 };
}

/** One view of `version` of a drop, on the UTC day of `at`. */
export function recordView(dropId: string, version: number, at: number = now()): void {
  const views = state();
  views.oldestPendingAt ??= Date.now();
  addTally(views.pending, { dropId, version, day: utcDay(at), count: 1 });
}

function addTally(pending: Map<string, Tally>, tally: Tally): void {
  const key = `${tally.dropId}/${tally.version}/${tally.day}`;
  const existing = pending.get(key);
  if (existing) existing.count += tally.count;
  else pending.set(key, { ...tally });
}

function writeBatch(batch: Map<string, Tally>) {
  const perDrop = new Map<string, number>();
  for (const { dropId, count } of batch.values()) perDrop.set(dropId, (perDrop.get(dropId) ?? 0) + count);
  return db().$transaction([
    // updateMany: a drop deleted since its view is simply skipped.
    ...[...perDrop].map(([id, count]) => db().drop.updateMany({ where: { id }, data: { viewCount: { increment: count } } })),
    // Likewise the EXISTS: a counter row for a deleted drop would break its foreign key and the batch.
    ...[...batch.values()].map(
      ({ dropId, version, day, count }) => db().$executeRaw`
        INSERT INTO "DropViewDay" ("dropId", "version", "day", "count")
        SELECT CAST(${dropId} AS TEXT), CAST(${version} AS INTEGER), CAST(${day} AS INTEGER), CAST(${count} AS INTEGER)
        WHERE EXISTS (SELECT 1 FROM "Drop" WHERE "id" = ${dropId})
        ON CONFLICT ("dropId", "day", "version") DO UPDATE SET "count" = "DropViewDay"."count" + excluded."count"`,
    ),
  ]);
}

async function drain(views: ViewState): Promise<void> {
  while (views.pending.size > 0) {
    const batch = views.pending;
    const batchSince = views.oldestPendingAt;
    views.pending = new Map();
    views.oldestPendingAt = null;
    try {
      await writeBatch(batch);
    } catch (error) {
      for (const tally of batch.values()) addTally(views.pending, tally);
      views.oldestPendingAt = batchSince;
      console.error("htmldrop: could not record view counts, retrying", error);
      views.retry ??= setTimeout(() => {
        views.retry = null;
        void flushViewCounts();
      }, 5_000).unref();
      return;
    }
  }
}

/** Writes every recorded view; called after each viewer response and on shutdown. Never throws. */
export function flushViewCounts(): Promise<void> {
  const views = state();
  views.flushing ??= drain(views).finally(() => {
    views.flushing = null;
  });
  return views.flushing;
}
